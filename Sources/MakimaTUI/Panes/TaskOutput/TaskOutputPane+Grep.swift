import Foundation

extension TaskOutputPane {
    /// Opened from a `:grep` hit: searches `pattern` (ignoring case, as `:grep` does) as `/`
    /// would, and puts the view on the match in the rendered line that best fits `line` (the
    /// hit's raw text: markdown is rendered, so the two may differ in markup), else on the
    /// newest match. Returns false while the output holds no match yet (it may still be
    /// loading), so the caller can try again after the next update.
    public mutating func seek(pattern: String, line: String) -> Bool {
        let query = pattern.lowercased()
        search = OutputSearch()
        search.update(query: query, in: model.lines)
        guard !search.matches.isEmpty else { return false }
        let wanted = line.lowercased().trimmingCharacters(in: .whitespaces)
        let lines = Set(search.matches.map(\.line)).sorted()
        let fitting = lines.last { i in
            let shown = model.lines[i].text.lowercased().trimmingCharacters(in: .whitespaces)
            return !shown.isEmpty && (wanted.contains(shown) || shown.contains(wanted))
        }
        search.update(query: query, in: model.lines, fromLine: fitting ?? lines.last ?? 0)
        showCurrentMatch()
        return true
    }
}
