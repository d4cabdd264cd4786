import Foundation

/// Search over the rendered output: the query is typed a character at a time (each longer
/// query only re-checks the lines that matched the shorter one), matches are kept in reading
/// order with their cell positions, `n`/`N` step through them and wrap around.
///
/// The work is linear in the text searched (one pass per line: KMP over the line's characters,
/// cell columns summed on the way) and done in steps of at most `charactersPerStep`: `update`
/// does the first, the view one more per frame (`advance`) until `isComplete`, so keys (`q`,
/// Esc) are read between steps however large the output.
///
/// Case-insensitive unless the query has an uppercase letter (as in vim's smartcase).
public struct OutputSearch: Equatable, Sendable {
    public struct Match: Equatable, Sendable {
        /// Index of the rendered line.
        public var line: Int
        /// Cells from the start of the line's text (gutter included) to the match.
        public var column: Int
        /// Width of the match in cells.
        public var width: Int
    }

    /// Characters looked at in one step: a few milliseconds, well inside a frame.
    public static let charactersPerStep = 100_000
    /// Matches kept at most; a search that finds more stops there (the footer shows the count).
    public static let maximumMatches = 100_000

    public private(set) var query = ""
    public private(set) var matches: [Match] = []
    /// The match the view is on (an index into `matches`).
    public private(set) var current: Int?
    /// The lines still to look at for `query`, in reading order, from `nextCandidate` on.
    private var candidates: [Int] = []
    private var nextCandidate = 0
    /// The first match at or after this line becomes `current`.
    private var fromLine = 0

    public init() {}

    public var count: Int { matches.count }

    /// True when every line has been looked at for the query.
    public var isComplete: Bool { nextCandidate >= candidates.count }

    /// `3/12`, `0/0` (what the footer shows); `3/12…` while the search is still going.
    public var position: String { "\(current.map { $0 + 1 } ?? 0)/\(matches.count)\(isComplete ? "" : "…")" }

    /// Sets the query and starts finding its matches in `lines` (one step; `advance` does the
    /// rest); the current match becomes the first at or after `fromLine` (the top of the view).
    public mutating func update<Lines: RandomAccessCollection<RenderedLine>>(
        query newQuery: String, in lines: Lines, fromLine: Int = 0
    ) where Lines.Index == Int {
        let narrowing =
            isComplete && !query.isEmpty && newQuery.hasPrefix(query)
            && Self.caseSensitive(newQuery) == Self.caseSensitive(query)
        var lastLine = -1
        candidates =
            narrowing
            ? matches.compactMap { m in
                defer { lastLine = m.line }
                return m.line == lastLine ? nil : m.line
            } : Array(lines.indices)
        nextCandidate = 0
        query = newQuery
        matches = []
        current = nil
        self.fromLine = fromLine
        if newQuery.isEmpty { candidates = [] }
        advance(in: lines)
    }

    /// Looks at up to `budget` more characters of `lines` (the lines `update` was given).
    public mutating func advance<Lines: RandomAccessCollection<RenderedLine>>(
        in lines: Lines, budget: Int = charactersPerStep
    ) where Lines.Index == Int {
        guard !isComplete else { return }
        let sensitive = Self.caseSensitive(query)
        let needle = Self.folded(query, sensitive: sensitive)
        let restarts = Self.restarts(needle)
        var spent = 0
        while nextCandidate < candidates.count && spent < budget {
            let i = candidates[nextCandidate]
            nextCandidate += 1
            guard i < lines.count else { continue }
            let text = lines[i].text
            spent += text.utf8.count + 1
            find(needle, restarts: restarts, in: text, line: i, sensitive: sensitive)
            if matches.count >= Self.maximumMatches { nextCandidate = candidates.count }
        }
        if isComplete && current == nil && !matches.isEmpty { current = 0 }
    }

    /// The matches on line `index` (matches are in line order: found by bisection).
    public func matches(onLine index: Int) -> ArraySlice<Match> {
        var low = 0
        var high = matches.count
        while low < high {
            let mid = (low + high) / 2
            if matches[mid].line < index { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < matches.count && matches[end].line == index { end += 1 }
        return matches[low..<end]
    }

    /// `n`: the next match, wrapping to the first.
    public mutating func next() {
        guard !matches.isEmpty else { return }
        current = ((current ?? -1) + 1) % matches.count
    }

    /// `N`: the previous match, wrapping to the last.
    public mutating func previous() {
        guard !matches.isEmpty else { return }
        current = ((current ?? 0) - 1 + matches.count) % matches.count
    }

    public var currentMatch: Match? { current.map { matches[$0] } }

    // MARK: Matching

    private static func caseSensitive(_ q: String) -> Bool { q.contains { $0.isUppercase } }

    /// A character as compared: itself, or lowercased when the search ignores case (ASCII
    /// without building a string; a lowercasing that is not one character keeps the original).
    private static func fold(_ ch: Character, sensitive: Bool) -> Character {
        guard !sensitive else { return ch }
        if let a = ch.asciiValue {
            return (0x41...0x5A).contains(a) ? Character(Unicode.Scalar(a + 0x20)) : ch
        }
        let lower = ch.lowercased()
        return lower.count == 1 ? Character(lower) : ch
    }

    private static func folded(_ s: String, sensitive: Bool) -> [Character] { s.map { fold($0, sensitive: sensitive) } }

    /// KMP's failure table: for each prefix of `needle`, the length of its longest proper
    /// prefix that is also its suffix.
    private static func restarts(_ needle: [Character]) -> [Int] {
        var table = Array(repeating: 0, count: needle.count)
        var k = 0
        for i in needle.indices.dropFirst() {
            while k > 0 && needle[i] != needle[k] { k = table[k - 1] }
            if needle[i] == needle[k] { k += 1 }
            table[i] = k
        }
        return table
    }

    /// Appends the non-overlapping matches of `needle` in `text` (one pass; each match's cell
    /// column from the widths summed so far).
    private mutating func find(_ needle: [Character], restarts: [Int], in text: String, line: Int, sensitive: Bool) {
        guard !needle.isEmpty else { return }
        // Cell column before each of the last `needle.count` characters (a ring), so a match's
        // start is known when its last character is read.
        var starts = Array(repeating: 0, count: needle.count)
        var column = 0
        var k = 0
        var n = 0
        for ch in text {
            starts[n % needle.count] = column
            column += CellWidth.of(ch)
            n += 1
            let c = Self.fold(ch, sensitive: sensitive)
            while k > 0 && c != needle[k] { k = restarts[k - 1] }
            if c == needle[k] { k += 1 }
            guard k == needle.count else { continue }
            let start = starts[(n - needle.count) % needle.count]
            if current == nil && line >= fromLine { current = matches.count }
            matches.append(Match(line: line, column: start, width: column - start))
            k = 0  // non-overlapping, as before: the search goes on after the match
            if matches.count >= Self.maximumMatches { return }
        }
    }
}

/// Copying through the terminal: OSC 52 in the plain form neovim and lazygit send
/// (`ESC ] 52 ; c ; base64 BEL`). tmux with `set-clipboard on` keeps it as a paste buffer and
/// passes it on to the outer terminal.
public enum Clipboard {
    /// Terminals and tmux cap what they accept; more than this is cut (at a character boundary).
    public static let maximumBytes = 74_994

    /// The escape sequence that puts `text` on the clipboard.
    public static func osc52(_ text: String) -> String {
        var bytes = Array(text.utf8)
        if bytes.count > maximumBytes {
            bytes = Array(bytes.prefix(maximumBytes))
            // Back off to the start of a UTF-8 sequence so the cut leaves valid text.
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        }
        return "\u{1B}]52;c;" + Data(bytes).base64EncodedString() + "\u{07}"
    }

    /// The plain text of rendered lines, one per line (what `y` copies).
    public static func text(of lines: some Sequence<RenderedLine>) -> String {
        lines.map { line in
            var t = line.copyText.map { line.prefix.text + $0 } ?? line.text
            while t.last == " " { t.removeLast() }
            return t
        }.joined(separator: "\n")
    }

    /// The code of block `number` (without its frame), what `Y` copies.
    public static func code(block number: Int, in lines: some Collection<RenderedLine>) -> String? {
        let body = lines.filter { $0.codeBlock == number && $0.fill == nil }
        guard lines.contains(where: { $0.codeBlock == number }) else { return nil }
        return body.map(\.content.text).joined(separator: "\n")
    }
}

extension RenderedLine {
    /// The line with the cells of `match` (columns of `text`: gutter, then content) drawn in
    /// `style`, for showing search matches; the rest keeps its style.
    public func highlighting(_ match: OutputSearch.Match, style: CellStyle) -> RenderedLine {
        highlighting([(match, style)])
    }

    /// The line with the cells of each match drawn in its style (matches in column order, not
    /// overlapping): one pass over the line whatever the number of matches.
    public func highlighting(_ marks: [(match: OutputSearch.Match, style: CellStyle)]) -> RenderedLine {
        guard !marks.isEmpty else { return self }
        var out = self
        let cells = marks.map { ($0.match.column..<($0.match.column + $0.match.width), $0.style) }
        out.prefix = prefix.restyling(cells)
        let shift = prefix.width
        out.content = content.restyling(cells.map { (($0.0.lowerBound - shift)..<($0.0.upperBound - shift), $0.1) })
        return out
    }
}

extension StyledLine {
    /// The line with the characters starting in each range of cells drawn in its style
    /// (ranges in order, not overlapping).
    func restyling(_ marks: [(Range<Int>, CellStyle)]) -> StyledLine {
        let marks = marks.filter { $0.0.upperBound > 0 && !$0.0.isEmpty }
        guard !marks.isEmpty else { return self }
        var out = StyledLine()
        var column = 0
        var m = 0
        for span in spans {
            var piece = ""
            var pieceStyle = span.style
            for ch in span.text {
                while m < marks.count && marks[m].0.upperBound <= column { m += 1 }
                let style = m < marks.count && marks[m].0.contains(column) ? marks[m].1 : span.style
                if style != pieceStyle && !piece.isEmpty {
                    out.append(piece, pieceStyle)
                    piece = ""
                }
                pieceStyle = style
                piece.append(ch)
                column += CellWidth.of(ch)
            }
            out.append(piece, pieceStyle)
        }
        return out
    }
}
