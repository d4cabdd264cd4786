/// A run of text in one style.
public struct Span: Equatable, Sendable {
    public var text: String
    public var style: CellStyle

    public init(_ text: String, _ style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }
}

/// One line of styled text, measured in cells. Components build these and write them into a
/// `CellBuffer`; every layout decision (truncation, padding, alignment) counts cells.
public struct StyledLine: Equatable, Sendable {
    public var spans: [Span]

    public init(_ spans: [Span] = []) { self.spans = spans }
    public init(_ text: String, _ style: CellStyle = .plain) { spans = [Span(text, style)] }

    public var width: Int { spans.reduce(0) { $0 + CellWidth.of($1.text) } }
    public var text: String { spans.map(\.text).joined() }

    public mutating func append(_ text: String, _ style: CellStyle) {
        guard !text.isEmpty else { return }
        if let last = spans.last, last.style == style {
            spans[spans.count - 1].text += text
        } else {
            spans.append(Span(text, style))
        }
    }

    public mutating func append(_ line: StyledLine) {
        for s in line.spans { append(s.text, s.style) }
    }

    /// The line cut to at most `cells` cells, ending in `ellipsis` when something was cut.
    /// A wide character is never split: if it does not fit whole, it is left out.
    public func truncated(to cells: Int, ellipsis: String = "…") -> StyledLine {
        guard width > cells else { return self }
        guard cells > 0 else { return StyledLine() }
        let budget = cells - CellWidth.of(ellipsis)
        if budget < 0 { return StyledLine(ellipsis, spans.last?.style ?? .plain).truncated(to: cells, ellipsis: "") }
        var out = StyledLine()
        var used = 0
        var lastStyle = spans.first?.style ?? .plain
        outer: for span in spans {
            lastStyle = span.style
            var piece = ""
            for ch in span.text {
                let w = CellWidth.of(ch)
                if used + w > budget {
                    out.append(piece, span.style)
                    break outer
                }
                piece.append(ch)
                used += w
            }
            out.append(piece, span.style)
        }
        out.append(ellipsis, lastStyle)
        return out
    }

    /// The line padded with spaces (in `style`) to exactly `cells` cells, truncating if longer.
    public func padded(to cells: Int, style: CellStyle = .plain, ellipsis: String = "…") -> StyledLine {
        var out = truncated(to: cells, ellipsis: ellipsis)
        let w = out.width
        if w < cells { out.append(String(repeating: " ", count: cells - w), style) }
        return out
    }
}

/// Cell-counting helpers for plain strings.
public enum TextLayout {
    /// `text` cut to at most `cells` cells with an ellipsis; never splits a wide character.
    public static func truncate(_ text: String, to cells: Int, ellipsis: String = "…") -> String {
        StyledLine(text).truncated(to: cells, ellipsis: ellipsis).text
    }

    /// `text` padded with spaces on the right to `cells` cells (truncated if longer).
    public static func pad(_ text: String, to cells: Int, ellipsis: String = "…") -> String {
        StyledLine(text).padded(to: cells, ellipsis: ellipsis).text
    }

    /// Word-wraps `text` into lines of at most `cells` cells; words longer than a line are
    /// broken between grapheme clusters. Newlines in the text start new lines.
    public static func wrap(_ text: String, to cells: Int) -> [String] {
        guard cells > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var w = String(word)
                var ww = CellWidth.of(w)
                if lineWidth > 0 && lineWidth + 1 + ww <= cells {
                    line += " " + w
                    lineWidth += 1 + ww
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while ww > cells {
                    var head = ""
                    var hw = 0
                    var rest = Substring(w)
                    while let ch = rest.first, hw + CellWidth.of(ch) <= cells {
                        head.append(ch)
                        hw += CellWidth.of(ch)
                        rest = rest.dropFirst()
                    }
                    if head.isEmpty, let ch = rest.first {
                        head.append(ch)
                        rest = rest.dropFirst()
                    }
                    lines.append(head)
                    w = String(rest)
                    ww = CellWidth.of(w)
                }
                line = w
                lineWidth = ww
            }
            lines.append(line)
        }
        return lines
    }
}
