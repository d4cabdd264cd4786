@_spi(Fuzzing) import MakimaTUI

/// The task view's search (`OutputSearch`). The input is a query, a NUL, then the text, whose
/// lines are repeated up to 16 times (the first byte says how many) so a small input makes a
/// long line. Invariants: each step looks at no more than its budget plus one line; the
/// search completes in as many steps as that allows; the matches are in reading order and,
/// for inputs small enough to check the slow way, exactly the non-overlapping matches found
/// character by character, at the right cells. The time per input is bounded by libFuzzer's
/// `-timeout` (see scripts/fuzz.sh): work that grew with the square of a line would exceed it.
enum SearchFuzz {
    static let budget = 4_096

    static func check(_ bytes: [UInt8]) -> String? {
        guard let nul = bytes.firstIndex(of: 0) else { return nil }
        let query = String(String(decoding: bytes[..<nul], as: UTF8.self).prefix(24))
        let repeats = Int(bytes.first ?? 0) % 16 + 1
        let text = String(decoding: bytes[(nul + 1)...], as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            RenderedLine(text: String(repeating: String($0), count: repeats))
        }
        var search = OutputSearch()
        search.update(query: query, in: lines)
        let total = lines.reduce(0) { $0 + $1.text.utf8.count + 1 }
        var steps = 0
        while !search.isComplete {
            search.advance(in: lines, budget: budget)
            steps += 1
            if steps > total / budget + lines.count + 1 { return "search not complete after \(steps) steps" }
        }
        let found = search.matches
        if zip(found, found.dropFirst()).contains(where: { $0.line > $1.line }) { return "matches out of order" }
        if query.isEmpty != found.isEmpty && query.isEmpty { return "matches for an empty query" }
        guard total <= 4_096, !query.isEmpty else { return nil }
        let expected = lines.indices.flatMap { slowMatches(query, in: lines[$0].text, line: $0) }
        if expected != found.map({ [$0.line, $0.column, $0.width] }) {
            return "matches differ from the slow search: \(found.prefix(3)) vs \(expected.prefix(3))"
        }
        return nil
    }

    /// The reference: at each character, compare the query character by character. Each match
    /// is [line, column, width].
    static func slowMatches(_ query: String, in text: String, line: Int) -> [[Int]] {
        let sensitive = query.contains { $0.isUppercase }
        func fold(_ c: Character) -> Character {
            guard !sensitive else { return c }
            let lower = c.lowercased()
            return lower.count == 1 ? Character(lower) : c
        }
        let needle = query.map(fold)
        let chars = Array(text)
        var columns = [0]
        for c in chars { columns.append(columns[columns.count - 1] + CellWidth.of(c)) }
        var out: [[Int]] = []
        var i = 0
        while i + needle.count <= chars.count {
            if (0..<needle.count).allSatisfy({ fold(chars[i + $0]) == needle[$0] }) {
                out.append([line, columns[i], columns[i + needle.count] - columns[i]])
                i += needle.count
            } else {
                i += 1
            }
        }
        return out
    }
}
