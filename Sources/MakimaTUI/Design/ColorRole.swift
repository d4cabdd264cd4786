/// The colour roles of the makima.jp palette (docs/design.md, "Palette"). Everything drawn names
/// a role, never a colour: the theme and the terminal's capability decide the actual colour.
public enum ColorRole: String, CaseIterable, Sendable, Hashable {
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
}
