/// Builds a list row from columns padded to fixed widths in cells (CJK text counts two per
/// character), so columns line up whatever the script. The last column takes the rest.
struct RowLine {
    private(set) var line = StyledLine()
    static let gap = 2

    /// A column `width` cells wide (cut with an ellipsis when longer); nil: no padding.
    mutating func column(_ text: String, _ width: Int?, _ style: CellStyle) {
        if !line.spans.isEmpty { line.append(String(repeating: " ", count: Self.gap), .plain) }
        guard let width else { return line.append(text, style) }
        guard width > 1 else { return line.append(StyledLine(text, style).padded(to: width)) }
        let (shown, cells) = Self.fit(text, width)
        line.append(shown, style)
        if cells < width { line.append(String(repeating: " ", count: width - cells), .plain) }
    }

    /// `text` cut to `width` cells as `StyledLine.truncated` cuts it (ending in "…", a wide
    /// character that does not fit left out), and the cells it takes. One pass that stops at
    /// the cut: a list pane lays out every row of a large list, and `padded` measures the
    /// whole text, cuts it, then measures again.
    static func fit(_ text: String, _ width: Int) -> (String, cells: Int) {
        var used = 0
        // Where the text would be cut if it turns out too long: one cell left for "…".
        var cut = text.startIndex
        var usedAtCut = 0
        var i = text.startIndex
        while i < text.endIndex {
            let w = CellWidth.of(text[i])
            if used + w > width { return (text[..<cut] + "…", usedAtCut + 1) }
            used += w
            text.formIndex(after: &i)
            if used <= width - 1 {
                cut = i
                usedAtCut = used
            }
        }
        return (text, used)
    }
}

extension RowLine {
    /// Column titles laid out with the same widths as the rows below them.
    static func header(_ columns: [(String, Int?)]) -> StyledLine {
        var r = RowLine()
        for c in headerColumns(columns) { r.column(c.text, c.width, c.style) }
        return r.line
    }

    static func headerColumns(_ columns: [(String, Int?)]) -> [(text: String, width: Int?, style: CellStyle)] {
        columns.map { ($0.0.uppercased(), $0.1, CellStyle(fg: .foregroundMuted, attributes: [.bold, .underline])) }
    }
}

/// A row whose first column (a title) gives up cells before anything after it is cut at the
/// list's edge: at 80 columns Tasks keeps its daemon and contract columns with a shorter
/// title. Widths are in cells; the title is cut with an ellipsis, never below `minimumTitle`.
/// Every row of a list narrows its title by the same rule (`reserve`), so columns stay aligned.
public struct FittedRow: Equatable, Sendable {
    var title: String
    var titleWidth: Int
    var titleStyle: CellStyle
    /// The columns after the title, starting with the gap before them.
    var rest: StyledLine
    /// The cells kept for the columns after the title (the column titles' widths).
    var reserve: Int
    static let minimumTitle = 16

    /// `columns` as `RowLine` lays them out; the first one must have a width. `reserve`
    /// defaults to what the columns after the title take.
    init(_ columns: [(text: String, width: Int?, style: CellStyle)], reserve: Int? = nil) {
        let first = columns.first ?? ("", 0, .plain)
        title = first.text
        titleWidth = first.width ?? CellWidth.of(first.text)
        titleStyle = first.style
        var after = RowLine()
        for c in columns.dropFirst() { after.column(c.text, c.width, c.style) }
        rest =
            after.line.spans.isEmpty
            ? StyledLine() : StyledLine(String(repeating: " ", count: RowLine.gap)) + after.line
        self.reserve = reserve ?? rest.width
    }

    /// The row in `cells`: the title narrowed to leave `reserve` cells, down to its minimum.
    func line(fitting cells: Int) -> StyledLine {
        let room = cells == .max ? titleWidth : cells - reserve
        let width = max(min(titleWidth, Self.minimumTitle), min(titleWidth, room))
        var r = RowLine()
        r.column(title, width, titleStyle)
        return r.line + rest
    }
}
