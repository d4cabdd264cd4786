/// The `NAV//` strip under the masthead: every pane with its number key, the current one in
/// reverse video (readable without colour too). Narrower terminals get tighter spacing, then
/// short labels, then numbers with only the current label spelled out. While the operator is
/// drilled down (a detail pane on top), the strip shows the path instead (`Breadcrumbs`).
public enum NavStrip {
    public static let background: ColorRole = .panel

    /// `path` is the pane stack's crumbs; with fewer than two the pane list is drawn.
    public static func render(
        current: PaneID, path: [Crumb] = [], into buffer: inout CellBuffer, row: Rect, context: RenderContext
    ) {
        guard !row.isEmpty else { return }
        buffer.fill(row.row(0), style: CellStyle(fg: .body, bg: background))
        let inner = row.inset(left: 1, right: 1)
        let (line, items): (StyledLine, [(HitTarget, Range<Int>)])
        if path.count > 1 {
            let lead = prefix(context.glyphs)
            let crumbs = Breadcrumbs.layout(path, width: inner.width - lead.width, glyphs: context.glyphs)
            line = lead + crumbs.line
            items = crumbs.spans.map {
                (.crumb($0.index), ($0.cells.lowerBound + lead.width)..<($0.cells.upperBound + lead.width))
            }
        } else {
            let layout = bestLayout(current: current, width: inner.width, glyphs: context.glyphs)
            line = layout.line
            items = layout.items.map { (.pane($0.pane), $0.cells) }
        }
        buffer.write(line, x: inner.x, y: row.y, maxX: inner.maxX)
        for (target, cells) in items {
            buffer.mark(
                Rect(x: inner.x + cells.lowerBound, y: row.y, width: cells.count, height: 1).intersection(inner), target
            )
        }
    }

    /// `NAV// │ HOME › CONTRACT Mesh scheduler › TASK Cache heartbeats`, fitted to `width`.
    public static func pathLine(_ path: [Crumb], width: Int, glyphs: Glyphs) -> StyledLine {
        var line = prefix(glyphs)
        line.append(Breadcrumbs.line(path, width: width - line.width, glyphs: glyphs))
        return line
    }

    static func prefix(_ glyphs: Glyphs) -> StyledLine {
        var line = StyledLine("NAV//", CellStyle(fg: .accent, attributes: .bold))
        line.append(" \(glyphs.navDivider) ", CellStyle(fg: .borderMuted))
        return line
    }

    /// The widest layout that fits in `width` cells.
    public static func bestLine(current: PaneID, width: Int, glyphs: Glyphs) -> StyledLine {
        bestLayout(current: current, width: width, glyphs: glyphs).line
    }

    /// The widest layout that fits, with the cells each pane's item takes (for clicks).
    static func bestLayout(
        current: PaneID, width: Int, glyphs: Glyphs
    ) -> (line: StyledLine, items: [(pane: PaneID, cells: Range<Int>)]) {
        let tiers: [(gap: Int, label: (PaneID) -> String)] = [
            (2, { "\($0.number) \($0.title)" }),
            (1, { "\($0.number) \($0.title)" }),
            (1, { "\($0.number) \($0.shortTitle)" }),
            (1, { $0 == current ? "\($0.number) \($0.title)" : "\($0.number)" }),
        ]
        var candidate = (line: StyledLine(), items: [(pane: PaneID, cells: Range<Int>)]())
        for tier in tiers {
            candidate = line(current: current, gap: tier.gap, label: tier.label, glyphs: glyphs)
            if candidate.line.width <= width { return candidate }
        }
        return (candidate.line.truncated(to: width, ellipsis: glyphs.ellipsis), candidate.items)
    }

    static func line(
        current: PaneID, gap: Int, label: (PaneID) -> String, glyphs: Glyphs
    ) -> (line: StyledLine, items: [(pane: PaneID, cells: Range<Int>)]) {
        var line = prefix(glyphs)
        var items: [(pane: PaneID, cells: Range<Int>)] = []
        for (i, pane) in PaneID.topLevel.enumerated() {
            if i > 0 { line.append(String(repeating: " ", count: gap), .plain) }
            let start = line.width
            if pane == current {
                line.append(label(pane), CellStyle(fg: .accent, attributes: [.bold, .reverse]))
            } else {
                line.append(label(pane), CellStyle(fg: .accent))
            }
            items.append((pane, start..<line.width))
        }
        return (line, items)
    }
}
