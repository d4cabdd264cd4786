import Foundation

extension TaskOutputPane {
    /// Opened from a `:grep` hit: searches `pattern` (ignoring case, as `:grep` does) as `/`
    /// would, and puts the view on the match in the rendered line that best fits `line` (the
    /// hit's whole raw line: markdown is rendered, so the two are compared on their letters and
    /// digits only, and a long line may wrap into several rendered ones), else on the newest
    /// match. Returns false while the output holds no match yet (it may still be
    /// loading), so the caller can try again after the next update.
    public mutating func seek(pattern: String, line: String) -> Bool {
        let query = pattern.lowercased()
        search = OutputSearch()
        search.update(query: query, in: model.lines)
        guard !search.matches.isEmpty else { return false }
        let wanted = Self.lettersAndDigits(line)
        let lines = Set(search.matches.map(\.line)).sorted()
        let fitting = lines.last { i in
            let shown = Self.lettersAndDigits(model.lines[i].text)
            return !shown.isEmpty && !wanted.isEmpty && (wanted.contains(shown) || shown.contains(wanted))
        }
        search.update(query: query, in: model.lines, fromLine: fitting ?? lines.last ?? 0)
        showCurrentMatch()
        return true
    }

    /// `text` lowercased, without markup, punctuation or blanks: a raw markdown line and the
    /// line it renders to compare equal.
    static func lettersAndDigits(_ text: String) -> String {
        String(String.UnicodeScalarView(text.lowercased().unicodeScalars.filter(CharacterSet.alphanumerics.contains)))
    }
}
