/// A key press, decoded from curses' `wget_wch` (see `KeyDecoder`).
public enum Key: Hashable, Sendable {
    /// A printable character.
    case char(Character)
    /// Ctrl plus a letter, lowercase (`.ctrl("c")` is Ctrl-C).
    case ctrl(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab, backTab, delete
    case function(Int)

    /// How the key is written in hints, help and docs/keys.md.
    public var label: String {
        switch self {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .ctrl(let c): return "Ctrl-" + String(c).uppercased()
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .delete: return "Del"
        case .function(let n): return "F\(n)"
        }
    }
}
