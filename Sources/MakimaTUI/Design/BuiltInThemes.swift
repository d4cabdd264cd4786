/// The themes compiled into the binary, so the app draws correctly when no `Themes/` directory
/// is found. `Themes/*.theme` ship the same values; a test keeps them in lockstep. A profile's
/// mark (`mesh`) takes the accent until a profile's own accent is set over it (`LivePalette`).
extension Theme {
    /// The makima.jp palette, exact values (docs/design.md, "Palette").
    public static let makima = Theme(name: "makima") { role in
        switch role {
        case .background: ThemeColor(hex: 0x0C1729)
        case .panel: ThemeColor(hex: 0x0F1C2F)
        case .backgroundDeep: ThemeColor(hex: 0x0B1220)
        case .foreground: ThemeColor(hex: 0xF0F5FF)
        case .accent, .mesh: ThemeColor(hex: 0x9BC3FF)
        case .body: ThemeColor(hex: 0xDBE7FF)
        case .bodySoft: ThemeColor(hex: 0xE4EDFF)
        case .foregroundMuted: ThemeColor(hex: 0x9BC3FF, alpha: 0.65)
        case .border: ThemeColor(hex: 0x3F6FB3)
        case .borderMuted: ThemeColor(RGB(r: 117, g: 170, b: 252), alpha: 0.35)
        case .warn: ThemeColor(hex: 0xF59E0B)
        case .ok: ThemeColor(hex: 0x4ADE80)
        case .danger: ThemeColor(hex: 0xF87171)
        }
    }

    /// Black background, every text role at WCAG contrast 7 or more, no translucency.
    public static let highContrast = Theme(name: "high-contrast") { role in
        switch role {
        case .background, .panel, .backgroundDeep: ThemeColor(hex: 0x000000)
        case .foreground, .body: ThemeColor(hex: 0xFFFFFF)
        case .bodySoft: ThemeColor(hex: 0xF0F0F0)
        case .accent, .border, .mesh: ThemeColor(hex: 0x8CC8FF)
        case .foregroundMuted: ThemeColor(hex: 0xD0D8E8)
        case .borderMuted: ThemeColor(hex: 0x6A9BE0)
        case .warn: ThemeColor(hex: 0xFFD000)
        case .ok: ThemeColor(hex: 0x3EF07A)
        case .danger: ThemeColor(hex: 0xFF6B6B)
        }
    }

    /// The makima blues on a pale background, for light terminals. Muted text and border are
    /// chosen so that in 256 colours they do not collapse onto the accent's index.
    public static let light = Theme(name: "light") { role in
        switch role {
        case .background: ThemeColor(hex: 0xF5F8FF)
        case .panel: ThemeColor(hex: 0xE9F0FC)
        case .backgroundDeep: ThemeColor(hex: 0xDDE6F5)
        case .foreground: ThemeColor(hex: 0x0B1220)
        case .accent, .mesh: ThemeColor(hex: 0x1D4F9C)
        case .body: ThemeColor(hex: 0x1C2A40)
        case .bodySoft: ThemeColor(hex: 0x2A3A55)
        case .foregroundMuted: ThemeColor(hex: 0x52688A)
        case .border: ThemeColor(hex: 0x5D84C4)
        case .borderMuted: ThemeColor(hex: 0x3F6FB3, alpha: 0.45)
        case .warn: ThemeColor(hex: 0xA44C00)
        case .ok: ThemeColor(hex: 0x13733A)
        case .danger: ThemeColor(hex: 0xB42318)
        }
    }

    /// Every built-in theme, default first.
    public static let builtIn: [Theme] = [.makima, .highContrast, .light]

    /// The built-in theme called `name`, if any.
    public static func builtIn(named name: String) -> Theme? {
        builtIn.first { $0.name == name }
    }
}
