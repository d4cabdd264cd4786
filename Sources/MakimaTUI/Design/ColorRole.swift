/// The colour roles of the makima.jp palette (docs/design.md, "Palette"). Everything drawn names
/// a role, never a colour: the theme and the terminal's capability decide the actual colour.
public enum ColorRole: Sendable, Hashable, CaseIterable {
    case background
    case panel
    case backgroundDeep
    case foreground
    case accent
    case body
    case bodySoft
    case foregroundMuted
    case border
    case borderMuted
    case warn
    case ok
    case danger
    /// The mark of a stored profile on MESHES// (docs/design.md, "Profile marks"): that
    /// profile's accent, or the theme's accent when it has none. Themes do not declare it.
    case mesh(MeshMark)

    /// The roles a theme declares, in this order: a theme file sets each of them and
    /// `ThemeFile.format` writes each of them.
    public static let themed: [ColorRole] = [
        .background, .panel, .backgroundDeep, .foreground, .accent, .body, .bodySoft, .foregroundMuted, .border,
        .borderMuted, .warn, .ok, .danger,
    ]

    public static let allCases: [ColorRole] = themed + MeshMark.allCases.map(ColorRole.mesh)

    /// The role's key in a theme file (`foregroundMuted`); a mark's (`mesh0`) names no key.
    public var name: String {
        if case .mesh(let mark) = self { return "mesh\(mark.rawValue)" }
        return String(describing: self)
    }
}

/// One of the few places MESHES// has for a profile's colour, by the profile's place in the
/// list: a fixed set, so the palette stays a fixed size whatever the profiles stored (a profile
/// past the last place has no mark).
public enum MeshMark: Int, Sendable, Hashable, CaseIterable {
    case mark0, mark1, mark2, mark3, mark4, mark5, mark6, mark7

    /// The mark of the profile at `place` (0-based) in MESHES//; nil past the last one.
    public init?(place: Int) { self.init(rawValue: place) }
}
