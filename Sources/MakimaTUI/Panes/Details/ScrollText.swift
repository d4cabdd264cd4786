/// A scrolling column of styled lines (a detail pane's body): wraps to the width it is drawn
/// at, keeps its scroll position in rows and clamps it to what fits. A value the pane keeps.
public struct ScrollText: Equatable, Sendable {
    /// First row in view.
    public private(set) var top = 0
    /// Rows that fit at the last render (page keys move by this much).
    public private(set) var pageSize = 10
    /// Rows the content wrapped to at the last render.
    public private(set) var rowCount = 0

    public init() {}

    public mutating func scroll(by rows: Int) { top = max(0, min(top + rows, maxTop)) }
    public mutating func toTop() { top = 0 }
    public mutating func toBottom() { top = maxTop }
    /// Scrolls just enough for row `row` to be in view.
    public mutating func reveal(_ row: Int) {
        if row < top { top = row } else if row >= top + pageSize { top = row - pageSize + 1 }
        top = max(0, min(top, maxTop))
    }

    var maxTop: Int { max(0, rowCount - pageSize) }

    /// Handles the scrolling keys; nil for any other action.
    public mutating func handle(_ action: KeyAction) -> Bool {
        switch action {
        case .moveDown: scroll(by: 1)
        case .moveUp: scroll(by: -1)
        case .pageDown: scroll(by: max(1, pageSize - 1))
        case .pageUp: scroll(by: -max(1, pageSize - 1))
        case .top: toTop()
        case .bottom: toBottom()
        default: return false
        }
        return true
    }

    /// Draws the rows in view into `rect`, recording the page size and row count.
    public mutating func render(_ rows: [StyledLine], into buffer: inout CellBuffer, rect: Rect) {
        pageSize = max(1, rect.height)
        rowCount = rows.count
        top = max(0, min(top, maxTop))
        for (i, row) in rows.dropFirst(top).prefix(rect.height).enumerated() {
            buffer.write(row, x: rect.x, y: rect.y + i, maxX: rect.maxX)
        }
    }
}

/// Helpers the detail panes share to lay out label/value fields and wrapped text.
enum DetailRows {
    static let labelWidth = 12

    /// `LABEL       value` on one row (cut at the pane's edge).
    static func field(_ label: String, _ value: StyledLine, width: Int) -> [StyledLine] {
        let label = StyledLine(label.uppercased(), CellStyle(fg: .foregroundMuted, attributes: .bold)).padded(
            to: labelWidth)
        return [label + value]
    }

    static func field(_ label: String, _ value: String, _ style: CellStyle = CellStyle(fg: .body), width: Int)
        -> [StyledLine]
    {
        field(label, StyledLine(value, style), width: width)
    }

    /// Multi-line server text word-wrapped to `width`, keeping its own line breaks.
    static func paragraph(_ text: String, _ style: CellStyle, width: Int, indent: Int = 0) -> [StyledLine] {
        let pad = StyledLine(String(repeating: " ", count: indent))
        return TextLayout.wrap(text, to: max(1, width - indent)).map { pad + StyledLine($0, style) }
    }

    /// A section rule: `TASKS// ─────`.
    static func heading(_ title: String, detail: String? = nil, width: Int, glyphs: Glyphs) -> StyledLine {
        var line = StyledLine(title.uppercased() + "//", CellStyle(fg: .foregroundMuted, attributes: .bold))
        if let detail { line.append("  " + detail, CellStyle(fg: .foregroundMuted)) }
        line.append(" ", .plain)
        let rest = max(0, width - line.width)
        line.append(String(repeating: glyphs.ruleHorizontal, count: rest), CellStyle(fg: .borderMuted))
        return line.truncated(to: width, ellipsis: glyphs.ellipsis)
    }
}
