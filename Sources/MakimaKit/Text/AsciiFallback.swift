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

    /// A text that says one thing in two scripts, its halves joined by ` · `
    /// (`翻訳ファイルの整理 · tidy localisation files`), as its halves an ASCII terminal can draw
    /// (`tidy localisation files`) rather than a run of `?`. A text with no such half is kept whole.
    public static func drawableHalves(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        let halves = text.components(separatedBy: " · ")
        guard halves.count > 1 else { return text }
        let drawable = halves.filter { half in
            half.contains { $0.isLetter } && half.allSatisfy { transliterate(String($0)) != "?" }
        }
        return drawable.isEmpty || drawable.count == halves.count ? text : drawable.joined(separator: " · ")
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
