/// What a cell shows when the locale is not UTF-8 (ncurses would draw non-ASCII blank, and an
/// 8-bit terminal would read UTF-8 bytes as C1 controls): common symbols become their ASCII
/// look-alikes, anything else `?`.
public enum AsciiFallback {
    public static func transliterate(_ text: String) -> String {
        if text.utf8.count == 1 { return text }  // one UTF-8 byte: ASCII
        switch text {
        case "…": return "~"
        case "·", "•", "●": return "*"
        case "↑": return "^"
        case "↓": return "v"
        case "←": return "<"
        case "→", "▸", "▶", "›": return ">"
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

    /// JSON text made ASCII without losing anything: every other character (they can only be
    /// inside strings) becomes a `\uXXXX` escape, as a UTF-16 surrogate pair above U+FFFF.
    public static func jsonEscaped(_ json: String) -> String {
        if json.utf8.allSatisfy({ $0 < 0x80 }) { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if scalar.isASCII {
                out.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
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
