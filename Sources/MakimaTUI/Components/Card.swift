/// A dashed-border card with an uppercase `TITLE//` in its top edge (docs/design.md, "Dashed
/// card"), as Home's SYSTEM// and GLOSSARY// cards:
///
///     ╭┄ SYSTEM// ┄┄┄┄┄┄┄┄┄┄ SHELL ┄╮
///     ┆ text                        ┆
///     ╰┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄╯
public enum Card {
    public static let borderStyle = Typography.cardBorder.cellStyle()
    public static let titleStyle = CellStyle(fg: .foregroundMuted, attributes: .bold)
    public static let accessoryStyle = CellStyle(fg: .accent)

    /// Draws the card in `rect` and returns the content area inside it (inside the border,
    /// one cell of padding left and right). Cards smaller than 2×2 draw nothing.
    @discardableResult
    public static func render(
        into buffer: inout CellBuffer, rect: Rect, title: String,
        accessory: String? = nil, accessoryRole: ColorRole = .accent, focused: Bool = false,
        context: RenderContext
    ) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        let g = context.glyphs
        // A focused card (Home's Tab) has its border and title in the accent.
        let borderStyle = focused ? CellStyle(fg: .accent, attributes: .bold) : Self.borderStyle
        let titleStyle = focused ? CellStyle(fg: .accent, attributes: [.bold, .reverse]) : Self.titleStyle
        let inner = rect.inset(by: 1)
        buffer.fill(inner, style: .plain)

        // Top edge: corner, dash, title, dashes, accessory, dash, corner.
        var top = StyledLine(g.topLeft + g.dashHorizontal, borderStyle)
        let heading = " " + title.uppercased() + "// "
        let tail = accessory.map { " " + $0 + " " } ?? ""
        let room = rect.width - 2 - 1 - 1
        let headingLine = StyledLine(heading, titleStyle).truncated(to: max(0, room), ellipsis: g.ellipsis)
        top.append(headingLine)
        var used = 2 + headingLine.width
        let tailWidth = CellWidth.of(tail)
        let showTail = !tail.isEmpty && used + tailWidth + 2 <= rect.width
        let dashes = rect.width - used - 1 - (showTail ? tailWidth + 1 : 0)
        if dashes > 0 { top.append(String(repeating: g.dashHorizontal, count: dashes), borderStyle) }
        used += max(0, dashes)
        if showTail {
            top.append(
                tail, accessoryRole == .accent ? accessoryStyle : CellStyle(fg: accessoryRole, attributes: .bold))
            top.append(g.dashHorizontal, borderStyle)
        }
        top.append(g.topRight, borderStyle)
        buffer.write(top, x: rect.x, y: rect.y, maxX: rect.maxX)

        for y in (rect.y + 1)..<(rect.maxY - 1) {
            buffer.write(g.dashVertical, x: rect.x, y: y, style: borderStyle)
            buffer.write(g.dashVertical, x: rect.maxX - 1, y: y, style: borderStyle)
        }
        let bottom = g.bottomLeft + String(repeating: g.dashHorizontal, count: rect.width - 2) + g.bottomRight
        buffer.write(bottom, x: rect.x, y: rect.maxY - 1, style: borderStyle, maxX: rect.maxX)
        return inner.inset(left: 1, right: 1)
    }
}

/// Small inline badge (docs/design.md, "Badge"): `支配する · CONTROL SYSTEM` on the panel colour.
public enum Badge {
    public static func line(text: String, subtitle: String?, context: RenderContext) -> StyledLine {
        let bg: ColorRole = .panel
        var line = StyledLine(" ", CellStyle(fg: .accent, bg: bg))
        if context.glyphs.isUnicode || subtitle == nil {
            line.append(text, CellStyle(fg: .accent, bg: bg, attributes: .bold))
        }
        if let subtitle {
            if context.glyphs.isUnicode {
                line.append(" \(context.glyphs.separatorDot) ", CellStyle(fg: .borderMuted, bg: bg))
            }
            line.append(
                Typography.badgeSubtitle.apply(to: subtitle), Typography.badgeSubtitle.cellStyle(background: bg))
        }
        line.append(" ", CellStyle(fg: .accent, bg: bg))
        return line
    }
}

/// The subtle grid texture of makima.jp's background (docs/design.md, "Grid texture"), as
/// faint dots on a fixed lattice of the screen so panes that redraw do not make it crawl.
public enum GridTexture {
    public static let columnSpacing = 6
    public static let rowSpacing = 3

    public static func render(into buffer: inout CellBuffer, rect: Rect, context: RenderContext) {
        let r = rect.intersection(buffer.bounds)
        guard !r.isEmpty else { return }
        let style = CellStyle(fg: .borderMuted)
        let dot = Character(context.glyphs.gridDot)
        var y = r.y + (rowSpacing - r.y % rowSpacing) % rowSpacing
        while y < r.maxY {
            var x = r.x + (columnSpacing - r.x % columnSpacing) % columnSpacing
            while x < r.maxX {
                buffer.put(dot, width: 1, x: x, y: y, style: style)
                x += columnSpacing
            }
            y += rowSpacing
        }
    }
}
