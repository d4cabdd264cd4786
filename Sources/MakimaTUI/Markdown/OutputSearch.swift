import Foundation

/// Search over the rendered output: the query is typed a character at a time (each longer
/// query only re-checks the lines that matched the shorter one), matches are kept in reading
/// order with their cell positions, `n`/`N` step through them and wrap around.
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

    public private(set) var query = ""
    public private(set) var matches: [Match] = []
    /// The match the view is on (an index into `matches`).
    public private(set) var current: Int?

    public init() {}

    public var count: Int { matches.count }

    /// `3/12`, `0/0` (what the footer shows).
    public var position: String { "\(current.map { $0 + 1 } ?? 0)/\(matches.count)" }

    /// Sets the query and finds its matches in `lines`; the current match becomes the first at
    /// or after `fromLine` (the top of the view).
    public mutating func update(query newQuery: String, in lines: [RenderedLine], fromLine: Int = 0) {
        let narrowing =
            !query.isEmpty && newQuery.hasPrefix(query) && Self.caseSensitive(newQuery) == Self.caseSensitive(query)
        let candidates: [Int] =
            narrowing ? Array(Set(matches.map(\.line))).sorted() : Array(lines.indices)
        query = newQuery
        matches = []
        current = nil
        guard !newQuery.isEmpty else { return }
        let sensitive = Self.caseSensitive(newQuery)
        let needle = sensitive ? newQuery : newQuery.lowercased()
        for i in candidates where i < lines.count {
            let text = sensitive ? lines[i].text : lines[i].text.lowercased()
            var searchFrom = text.startIndex
            while let r = text.range(of: needle, range: searchFrom..<text.endIndex) {
                matches.append(
                    Match(
                        line: i, column: CellWidth.of(String(text[..<r.lowerBound])),
                        width: CellWidth.of(String(text[r]))))
                searchFrom = r.upperBound
            }
        }
        if !matches.isEmpty { current = matches.firstIndex { $0.line >= fromLine } ?? 0 }
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

    private static func caseSensitive(_ q: String) -> Bool { q.contains { $0.isUppercase } }
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
            var t = line.text
            while t.last == " " { t.removeLast() }
            return t
        }.joined(separator: "\n")
    }

    /// The code of block `number` (without its frame), what `Y` copies.
    public static func code(block number: Int, in lines: [RenderedLine]) -> String? {
        let body = lines.filter { $0.codeBlock == number && $0.fill == nil }
        guard lines.contains(where: { $0.codeBlock == number }) else { return nil }
        return body.map(\.content.text).joined(separator: "\n")
    }
}

extension RenderedLine {
    /// The line with the cells of `match` (columns of `text`: gutter, then content) drawn in
    /// `style`, for showing search matches; the rest keeps its style.
    public func highlighting(_ match: OutputSearch.Match, style: CellStyle) -> RenderedLine {
        var out = self
        let cells = match.column..<(match.column + match.width)
        out.prefix = prefix.restyling(cells, style)
        out.content = content.restyling(
            (cells.lowerBound - prefix.width)..<(cells.upperBound - prefix.width), style)
        return out
    }
}

extension StyledLine {
    /// The line with the characters starting in `cells` drawn in `style`.
    func restyling(_ cells: Range<Int>, _ style: CellStyle) -> StyledLine {
        guard cells.upperBound > 0, !cells.isEmpty else { return self }
        var out = StyledLine()
        var column = 0
        for span in spans {
            var piece = ""
            var pieceIn = false
            for ch in span.text {
                let inside = cells.contains(column)
                if inside != pieceIn && !piece.isEmpty {
                    out.append(piece, pieceIn ? style : span.style)
                    piece = ""
                }
                pieceIn = inside
                piece.append(ch)
                column += CellWidth.of(ch)
            }
            out.append(piece, pieceIn ? style : span.style)
        }
        return out
    }
}
