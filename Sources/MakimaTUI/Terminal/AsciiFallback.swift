/// What a cell shows when the locale is not UTF-8 (ncurses would draw non-ASCII blank):
/// common symbols become their ASCII look-alikes, anything else `?`.
enum AsciiFallback {
    static func transliterate(_ text: String) -> String {
        if text.utf8.count == 1 { return text }
        switch text {
        case "…": return "~"
        case "·", "•", "●": return "*"
        case "↑": return "^"
        case "↓": return "v"
        case "←": return "<"
        case "→", "▸": return ">"
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
}
