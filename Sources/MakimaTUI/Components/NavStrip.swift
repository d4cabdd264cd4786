/// The `NAV//` strip under the masthead: every pane with its number key, the current one in
/// reverse video (readable without colour too). Narrower terminals get tighter spacing, then
/// short labels, then numbers with only the current label spelled out.
public enum NavStrip {
    public static let background: ColorRole = .panel

    public static func render(current: PaneID, into buffer: inout CellBuffer, row: Rect, context: RenderContext) {
        guard !row.isEmpty else { return }
        buffer.fill(row.row(0), style: CellStyle(fg: .body, bg: background))
        let inner = row.inset(left: 1, right: 1)
        let line = bestLine(current: current, width: inner.width, glyphs: context.glyphs)
        buffer.write(line, x: inner.x, y: row.y, maxX: inner.maxX)
    }

    /// The widest layout that fits in `width` cells.
    public static func bestLine(current: PaneID, width: Int, glyphs: Glyphs) -> StyledLine {
        let tiers: [(gap: Int, label: (PaneID) -> String)] = [
            (2, { "\($0.number) \($0.title)" }),
            (1, { "\($0.number) \($0.title)" }),
            (1, { "\($0.number) \($0.shortTitle)" }),
            (1, { $0 == current ? "\($0.number) \($0.title)" : "\($0.number)" }),
        ]
        var candidate = StyledLine()
        for tier in tiers {
            candidate = line(current: current, gap: tier.gap, label: tier.label, glyphs: glyphs)
            if candidate.width <= width { return candidate }
        }
        return candidate.truncated(to: width, ellipsis: glyphs.ellipsis)
    }

    static func line(current: PaneID, gap: Int, label: (PaneID) -> String, glyphs: Glyphs) -> StyledLine {
        var line = StyledLine("NAV//", CellStyle(fg: .accent, attributes: .bold))
        line.append(" \(glyphs.navDivider) ", CellStyle(fg: .borderMuted))
        for (i, pane) in PaneID.allCases.enumerated() {
            if i > 0 { line.append(String(repeating: " ", count: gap), .plain) }
            if pane == current {
                line.append(label(pane), CellStyle(fg: .accent, attributes: [.bold, .reverse]))
            } else {
                line.append(label(pane), CellStyle(fg: .accent))
            }
        }
        return line
    }
}
