/// What a cell shows when the locale is not UTF-8 (ncurses would draw non-ASCII blank, and an
/// 8-bit terminal would read UTF-8 bytes as C1 controls): common symbols become their ASCII
/// look-alikes, anything else `?`.
public enum AsciiFallback {
    static func transliterate(_ text: String) -> String {
        if text.utf8.count == 1 { return text }  // one UTF-8 byte: ASCII
        switch text {
        case "…": return "~"
        case "·", "•", "●": return "*"
        case "↑": return "^"
        case "↓": return "v"
        case "←": return "<"
        case "→", "▸", "▶": return ">"
        case "–", "—", "─", "┄": return "-"
        case "│", "┆": return "|"
        case "╭", "╮", "╰", "╯", "┌", "┐", "└", "┘": return "+"
        case "×": return "x"
        case "“", "”": return "\""
        case "‘", "’": return "'"
        case "◎": return "@"
        default: return "?"
        }
    }

    /// Every character of `text` made ASCII (line breaks and tabs kept).
    public static func text(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            if c == "\r\n" { out += "\n" } else { out += transliterate(String(c)) }
        }
        return out
    }
}
