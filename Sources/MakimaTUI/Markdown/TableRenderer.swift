/// A GFM table aligned in cells (CJK counts two), columns split by a light bar, the header
/// underlined by a rule. Rows never wrap: a table wider than the view scrolls sideways.
///
/// What one table may cost is bounded: past `maximumColumns` columns the rest are left out
/// behind a marker, and a cell wider than `maximumCellWidth` is cut with an ellipsis, so a row
/// is never wider than their product (a wide cell in each row of another column would
/// otherwise make every row as wide as all of them together).
enum TableRenderer {
    static let maximumColumns = 64
    static let maximumCellWidth = 120

    static func render(rows: [[StyledLine]], alignments: [MarkdownNode.Alignment], glyphs: Glyphs) -> [RenderedLine] {
        let allColumns = max(alignments.count, rows.map(\.count).max() ?? 0)
        guard allColumns > 0 else { return [] }
        let columns = min(allColumns, maximumColumns)
        let cells = rows.map { row in
            row.prefix(columns).map { $0.width > maximumCellWidth ? $0.truncated(to: maximumCellWidth) : $0 }
        }
        let widths = columnWidths(cells, columns: columns)
        let bar = MarkdownStyle.frame
        let vertical = glyphs.isUnicode ? "│" : "|"
        let cross = glyphs.isUnicode ? "┼" : "+"
        var out: [RenderedLine] = []
        for (r, row) in cells.enumerated() {
            var line = StyledLine()
            for c in 0..<columns {
                if c > 0 { line.append(" " + vertical + " ", bar) }
                let cell = c < row.count ? row[c] : StyledLine()
                let gap = widths[c] - cell.width
                let alignment = c < alignments.count ? alignments[c] : .none
                let left = alignment == .right ? gap : alignment == .center ? gap / 2 : 0
                line.append(String(repeating: " ", count: left), .plain)
                line.append(cell)
                if c < columns - 1 || columns < allColumns {
                    line.append(String(repeating: " ", count: gap - left), .plain)
                }
            }
            if columns < allColumns {
                line.append(" " + vertical + " ", bar)
                line.append(
                    r == 0 ? "\(glyphs.ellipsis) \(allColumns - columns) more columns" : glyphs.ellipsis,
                    MarkdownStyle.muted)
            }
            out.append(RenderedLine(line, wrap: .none))
            if r == 0 {
                let rule = widths.map { String(repeating: glyphs.ruleHorizontal, count: $0) }
                    .joined(separator: glyphs.ruleHorizontal + cross + glyphs.ruleHorizontal)
                out.append(RenderedLine(StyledLine(rule, bar), wrap: .none))
            }
        }
        return out
    }

    /// Each column's width: its widest cell, at least one.
    private static func columnWidths(_ rows: [[StyledLine]], columns: Int) -> [Int] {
        var widths = Array(repeating: 1, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() where i < columns { widths[i] = max(widths[i], cell.width) }
        }
        return widths
    }
}
