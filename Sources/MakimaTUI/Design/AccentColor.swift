/// A profile's accent (`ProfileAccent`) as a colour: `#rrggbb` itself, or the accent of the
/// theme so named (looked up as `--theme` names are).
enum AccentColor {
    static func resolve(_ spec: String, loader: ThemeLoader) throws(ThemeLoadError) -> RGB {
        if let rgb = RGB(hex: spec), spec.hasPrefix("#") { return rgb }
        return try loader.load(spec).theme.color(.accent)
    }
}

extension Theme {
    /// The same theme with `accent` in place of its own accent (every other role as declared,
    /// the profiles' marks too: a profile without an accent keeps the theme's own).
    func withAccent(_ accent: RGB) -> Theme {
        Theme(name: name) { $0 == .accent ? ThemeColor(accent) : self.declaredColor($0) }
    }

    /// The same theme with each mark in `marks` in that colour (a mark not in it, as declared:
    /// the theme's accent). Nothing else changes.
    func withMeshMarks(_ marks: [MeshMark: RGB]) -> Theme {
        guard !marks.isEmpty else { return self }
        return Theme(name: name) { role in
            if case .mesh(let mark) = role, let rgb = marks[mark] { return ThemeColor(rgb) }
            return self.declaredColor(role)
        }
    }
}
