import MakimaKit

/// The palette on screen: the theme chosen (start, Settings) with the shown profile's accent
/// over it (start, a switch of mesh) and each stored profile's accent on its MESHES// mark
/// (whenever the profiles are read again). Any change rebuilds the palette for the backend,
/// and the next frame draws with it.
@MainActor
final class LivePalette {
    private let loader: ThemeLoader
    private let backend: NcursesBackend
    private let detection: ColorDetection
    private let redefine: Bool
    private var theme: Theme
    private var accent: RGB?
    private var marks: [MeshMark: RGB] = [:]

    init(theme: Theme, loader: ThemeLoader, backend: NcursesBackend, detection: ColorDetection, redefine: Bool) {
        self.theme = theme
        self.loader = loader
        self.backend = backend
        self.detection = detection
        self.redefine = redefine
    }

    /// The palette for `theme` under `accent` and `marks`, as the start builds it too.
    static func palette(
        _ theme: Theme, accent: RGB?, marks: [MeshMark: RGB] = [:], detection: ColorDetection, redefine: Bool
    ) -> ResolvedPalette {
        let marked = theme.withMeshMarks(marks)
        return ColorMapper.palette(
            for: accent.map(marked.withAccent) ?? marked, detection: detection, redefineColors: redefine)
    }

    /// Loads `request` (a built-in name or a theme file); the accents stay over it.
    func setTheme(_ request: String) -> Result<String, ThemeLoadError> {
        do throws(ThemeLoadError) { theme = try loader.load(request).theme } catch { return .failure(error) }
        apply()
        return .success(theme.name)
    }

    /// The profile's accent, or the theme's own (nil); one that cannot be resolved leaves the
    /// colours as they are.
    func setAccent(_ spec: String?) -> Result<Void, ThemeLoadError> {
        var next: RGB?
        if let spec {
            do throws(ThemeLoadError) { next = try AccentColor.resolve(spec, loader: loader) } catch {
                return .failure(error)
            }
        }
        guard next != accent else { return .success(()) }
        accent = next
        apply()
        return .success(())
    }

    /// The stored profiles' accents in MESHES// order, nil for one without: each on the mark
    /// of its place (`MeshMark`; a profile past the last place has none). One that cannot be
    /// resolved (a theme file gone since) leaves its mark the theme's accent.
    func setMeshMarks(_ accents: [String?]) {
        let next = Self.marks(accents, loader: loader)
        guard next != marks else { return }
        marks = next
        apply()
    }

    static func marks(_ accents: [String?], loader: ThemeLoader) -> [MeshMark: RGB] {
        var marks: [MeshMark: RGB] = [:]
        for (mark, accent) in zip(MeshMark.allCases, accents) {
            guard let accent else { continue }
            marks[mark] = try? AccentColor.resolve(accent, loader: loader)
        }
        return marks
    }

    private func apply() {
        backend.setPalette(
            Self.palette(theme, accent: accent, marks: marks, detection: detection, redefine: redefine))
    }
}
