/// One line of rendered task output, laid out per frame for the width of the view: prose wraps
/// at word boundaries under a hanging gutter, logs wrap between characters, code and tables
/// do not wrap (they scroll sideways instead). Card edges sit at the right of the view.
public struct RenderedLine: Equatable, Sendable {
    public enum Wrap: Equatable, Sendable {
        /// Prose: break at spaces (a space on a background, inside an inline-code pill, is not a break).
        case words
        /// Logs and tool output: break between characters so columns stay put.
        case characters
        /// Code and tables: one row, cut at the view's edge and scrolled sideways.
        case none
    }

    /// Gutter before the first row (a list bullet, a quote bar, a card edge).
    public var prefix: StyledLine
    /// Gutter before every further row of the same line.
    public var hanging: StyledLine
    public var content: StyledLine
    public var wrap: Wrap
    /// Repeated after the content up to the trailer (rules and card edges); nil pads with spaces
    /// when there is a trailer and leaves the row short otherwise.
    public var fill: Span?
    /// Drawn flush with the right edge of the view (a card's right border).
    public var trailer: StyledLine
    /// The code block this line belongs to (for copying one block), numbered from 1 in the output.
    public var codeBlock: Int?
    /// What `y` copies of a line drawn cut (`OutputLimits`): the line as it came; nil copies
    /// what is drawn.
    public var copyText: String?

    public init(
        _ content: StyledLine = StyledLine(), prefix: StyledLine = StyledLine(), hanging: StyledLine? = nil,
        wrap: Wrap = .words, fill: Span? = nil, trailer: StyledLine = StyledLine(), codeBlock: Int? = nil
    ) {
        self.content = content
        self.prefix = prefix
        self.hanging = hanging ?? StyledLine(String(repeating: " ", count: prefix.width))
        self.wrap = wrap
        self.fill = fill
        self.trailer = trailer
        self.codeBlock = codeBlock
    }

    /// A line of plain text, as the output view showed before markdown (logs, tests).
    public init(text: String, _ style: CellStyle = .plain) {
        self.init(StyledLine(text, style), wrap: .characters)
    }

    /// The line as searched and copied: gutter and content, without the card edge.
    public var text: String { prefix.text + content.text }

    /// The rows this line takes at `width` cells, with code and tables shifted left by
    /// `scrollX` cells. Always at least one row.
    public func rows(width: Int, scrollX: Int = 0) -> [StyledLine] {
        guard width > 0 else { return [StyledLine()] }
        let room = max(1, width - prefix.width - trailer.width)
        var bodies: [StyledLine]
        switch wrap {
        case .words: bodies = content.wordWrapped(to: room)
        case .characters: bodies = content.wrapped(to: room)
        case .none: bodies = [content.dropping(cells: scrollX).cut(to: room)]
        }
        if bodies.isEmpty { bodies = [StyledLine()] }
        return bodies.enumerated().map { i, body in
            var row = i == 0 ? prefix : hanging
            row.append(body)
            if fill != nil || !trailer.spans.isEmpty {
                let gap = width - row.width - trailer.width
                if gap > 0 {
                    if let fill, !fill.text.isEmpty {
                        row.append(Self.repeated(fill.text, cells: gap), fill.style)
                    } else {
                        row.append(String(repeating: " ", count: gap), .plain)
                    }
                }
                row.append(trailer)
            }
            return row.width > width ? row.cut(to: width) : row
        }
    }

    private static func repeated(_ unit: String, cells: Int) -> String {
        let w = max(1, CellWidth.of(unit))
        var s = String(repeating: unit, count: cells / w)
        s += String(repeating: " ", count: cells % w)
        return s
    }
}

extension StyledLine {
    /// The line without its first `cells` cells (a wide character cut in half becomes a space).
    func dropping(cells: Int) -> StyledLine {
        guard cells > 0 else { return self }
        var out = StyledLine()
        var skipped = 0
        for span in spans {
            var piece = ""
            for ch in span.text {
                if skipped >= cells {
                    piece.append(ch)
                    continue
                }
                let w = CellWidth.of(ch)
                skipped += w
                if skipped > cells { piece += String(repeating: " ", count: skipped - cells) }
            }
            out.append(piece, span.style)
        }
        return out
    }

    /// The first `cells` cells of the line, without an ellipsis (code and tables scroll; a
    /// cut is not an omission).
    func cut(to cells: Int) -> StyledLine { truncated(to: cells, ellipsis: "") }

    /// The line broken into rows of at most `cells` cells at spaces, dropping the spaces a
    /// break falls on. Spaces with a background (inside an inline-code pill) do not break; a
    /// word longer than a row is broken between characters.
    func wordWrapped(to cells: Int) -> [StyledLine] {
        guard cells > 0, width > cells else { return [self] }
        // Words as runs of (character, style, width); a breakable space ends a word.
        typealias Piece = (ch: Character, style: CellStyle, w: Int)
        var words: [[Piece]] = []
        var word: [Piece] = []
        var spaceBefore: [Int] = []  // breakable spaces before each word
        var spaces = 0
        for span in spans {
            for ch in span.text {
                if ch == " " && span.style.bg == nil {
                    if !word.isEmpty {
                        words.append(word)
                        spaceBefore.append(spaces)
                        word = []
                        spaces = 0
                    }
                    spaces += 1
                } else {
                    word.append((ch, span.style, CellWidth.of(ch)))
                }
            }
        }
        if !word.isEmpty || words.isEmpty {
            words.append(word)
            spaceBefore.append(spaces)
        }
        var rows: [StyledLine] = []
        var row = StyledLine()
        var used = 0
        for (i, w) in words.enumerated() {
            let ww = w.reduce(0) { $0 + $1.w }
            let lead = i == 0 ? spaceBefore[i] : spaceBefore[i]
            if used > 0 || (i == 0 && lead > 0) {
                if used + lead + ww <= cells {
                    row.append(String(repeating: " ", count: lead), .plain)
                    used += lead
                } else if used > 0 {
                    rows.append(row)
                    row = StyledLine()
                    used = 0
                }
            }
            for p in w {
                if used + p.w > cells && used > 0 {
                    rows.append(row)
                    row = StyledLine()
                    used = 0
                }
                row.append(String(p.ch), p.style)
                used += p.w
            }
        }
        rows.append(row)
        return rows
    }
}
