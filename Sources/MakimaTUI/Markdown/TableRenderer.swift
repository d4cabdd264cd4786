/// A GFM table aligned in cells (CJK counts two), columns split by a light bar, the header
/// underlined by a rule. Rows never wrap: a table wider than the view scrolls sideways.
enum TableRenderer {
    static func render(rows: [[StyledLine]], alignments: [MarkdownNode.Alignment], glyphs: Glyphs) -> [RenderedLine] {
        let columns = max(alignments.count, rows.map(\.count).max() ?? 0)
        guard columns > 0 else { return [] }
        var widths = Array(repeating: 1, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() where i < columns { widths[i] = max(widths[i], cell.width) }
        }
        let bar = MarkdownStyle.frame
        let vertical = glyphs.isUnicode ? "│" : "|"
        let cross = glyphs.isUnicode ? "┼" : "+"
        var out: [RenderedLine] = []
        for (r, row) in rows.enumerated() {
            var line = StyledLine()
            for c in 0..<columns {
                if c > 0 { line.append(" " + vertical + " ", bar) }
                let cell = c < row.count ? row[c] : StyledLine()
                let gap = widths[c] - cell.width
                let alignment = c < alignments.count ? alignments[c] : .none
                let left = alignment == .right ? gap : alignment == .center ? gap / 2 : 0
                line.append(String(repeating: " ", count: left), .plain)
                line.append(cell)
                if c < columns - 1 { line.append(String(repeating: " ", count: gap - left), .plain) }
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
}
