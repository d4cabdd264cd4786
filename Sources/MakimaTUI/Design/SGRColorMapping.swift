import Foundation

/// Maps colours found in task output (ANSI SGR) onto palette roles, so program output is drawn
/// in the theme's colours and can never put arbitrary colours on screen.
///
/// Named colours follow their meaning: red → danger, green → ok, yellow → warn, blue, cyan and
/// magenta → accent, white → foreground, black and bright black → foregroundMuted.
/// 256-colour and RGB colours are classified the same way, by their CIE LCh hue, so that
/// `38;5;196` means what `31` means. (Plain nearest-role by ΔE does not: with the makima palette
/// it makes pure yellow "ok" and pure blue "foregroundMuted".) Greys (chroma below 15) go by
/// lightness: below L* 65 muted, else foreground.
public enum SGRColorMapping {
    /// Roles task output can be drawn in.
    public static let textRoles: Set<ColorRole> = [.foreground, .accent, .foregroundMuted, .warn, .ok, .danger]

    /// ANSI colour 0–15 → role.
    public static func role(forANSI color: AnsiColor) -> ColorRole {
        switch color.normal {
        case .black: .foregroundMuted
        case .red: .danger
        case .green: .ok
        case .yellow: .warn
        case .blue, .magenta, .cyan: .accent
        default: .foreground
        }
    }

    /// `38;5;n`: 0–15 by name, 16–255 by hue. Nil when out of range.
    public static func role(forXterm256 index: Int) -> ColorRole? {
        switch index {
        case 0...15: AnsiColor(rawValue: index).map(role(forANSI:))
        case Xterm256.searchable: cube[index - Xterm256.searchable.lowerBound]
        default: nil
        }
    }

    /// `38;2;r;g;b`: by hue (greys by lightness).
    public static func role(for rgb: RGB) -> ColorRole {
        let lab = LabColor(rgb)
        let chroma = hypot(lab.a, lab.b)
        if chroma < 15 { return lab.l < 65 ? .foregroundMuted : .foreground }
        var hue = atan2(lab.b, lab.a) * 180 / .pi
        if hue < 0 { hue += 360 }
        switch hue {
        case 50..<115: return .warn  // orange, amber, yellow, olive
        case 115..<180: return .ok  // green
        case 180..<345: return .accent  // cyan, blue, violet, magenta
        default: return .danger  // red, rose
        }
    }

    private static let cube: [ColorRole] = Xterm256.searchable.map { role(for: Xterm256.rgb($0) ?? RGB(hex: 0)) }
}
