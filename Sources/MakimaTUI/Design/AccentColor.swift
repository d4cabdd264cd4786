/// A profile's accent (`ProfileAccent`) as a colour: `#rrggbb` itself, or the accent of the
/// theme so named (looked up as `--theme` names are).
enum AccentColor {
    static func resolve(_ spec: String, loader: ThemeLoader) throws(ThemeLoadError) -> RGB {
        if let rgb = RGB(hex: spec), spec.hasPrefix("#") { return rgb }
        return try loader.load(spec).theme.color(.accent)
    }
}

extension Theme {
    /// The same theme with `accent` in place of its own accent (every other role as declared).
    func withAccent(_ accent: RGB) -> Theme {
        Theme(name: name) { $0 == .accent ? ThemeColor(accent) : self.declaredColor($0) }
    }
}
