import MakimaKit

/// The palette on screen: the theme chosen (start, Settings) with the shown profile's accent
/// over it (start, a switch of mesh). Either change rebuilds the palette for the backend, and
/// the next frame draws with it.
@MainActor
final class LivePalette {
    private let loader: ThemeLoader
    private let backend: NcursesBackend
    private let detection: ColorDetection
    private let redefine: Bool
    private var theme: Theme
    private var accent: RGB?

    init(theme: Theme, loader: ThemeLoader, backend: NcursesBackend, detection: ColorDetection, redefine: Bool) {
        self.theme = theme
        self.loader = loader
        self.backend = backend
        self.detection = detection
        self.redefine = redefine
    }

    /// The palette for `theme` under `accent`, as the start builds it too.
    static func palette(
        _ theme: Theme, accent: RGB?, detection: ColorDetection, redefine: Bool
    ) -> ResolvedPalette {
        ColorMapper.palette(for: accent.map(theme.withAccent) ?? theme, detection: detection, redefineColors: redefine)
    }

    /// Loads `request` (a built-in name or a theme file); the accent stays over it.
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

    private func apply() {
        backend.setPalette(Self.palette(theme, accent: accent, detection: detection, redefine: redefine))
    }
}
