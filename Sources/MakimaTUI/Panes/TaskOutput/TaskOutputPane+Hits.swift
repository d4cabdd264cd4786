/// Where the view stands a search hit, as lnav and less with a scroll margin do: the hit's
/// line with `hitContext` lines of output above and below it in view (as many as the output
/// has and the view fits), the line marked. Measured in rows of cells: a wrapped line counts
/// every row it takes.
extension TaskOutputPane {
    /// Lines of output kept in view on either side of the current hit.
    static let hitContext = 2

    /// Puts the current match in view with its context: at once when the body's size is known
    /// (the last frame's), else at the next frame.
    mutating func showCurrentMatch() {
        guard search.currentMatch != nil else { return }
        revealPending = true
        placeCurrentMatch()
    }

    /// Lays the view out for a pending reveal. A hit already shown with its context leaves the
    /// view where it is; otherwise the view starts `hitContext` lines above the hit (fewer when
    /// the lines after it would then fit), and near the end it is filled from above rather than
    /// left half empty.
    mutating func placeCurrentMatch() {
        let (width, height) = bodySize
        guard revealPending, width > 0, height > 0 else { return }
        revealPending = false
        guard let m = search.currentMatch, m.line < model.lines.count else { return }
        scrollSideways(to: m, width: width)
        let first = max(0, m.line - Self.hitContext)
        let last = min(model.lines.count - 1, m.line + Self.hitContext)
        let end = model.lines.count - 1
        let shown =
            following
            ? rows(first, end, width: width, over: height) <= height
            : first >= top && fits(from: top, through: last, width: width, height: height)
        if shown { return }
        following = false
        var t = first
        while t < m.line && !fits(from: t, through: last, width: width, height: height) { t += 1 }
        if !fits(from: t, through: last, width: width, height: height) {
            // What follows does not fit however little is above: keep the lines above, unless
            // the hit's own rows would then not fit.
            t = first
            while t < m.line && !fits(from: t, through: m.line, width: width, height: height) { t += 1 }
        }
        var below = rows(t, end, width: width, over: room(t, height))
        while t > 0 {
            let more = rows(t - 1, t - 1, width: width, over: height)
            guard below + more <= room(t - 1, height) else { break }
            below += more
            t -= 1
        }
        top = t
    }

    /// Lines `from...through` fit in the view with `from` at its top.
    private func fits(from: Int, through: Int, width: Int, height: Int) -> Bool {
        rows(from, through, width: width, over: room(from, height)) <= room(from, height)
    }

    /// Rows for output with `top` first: the first line held gives one to the line saying
    /// what is older.
    private func room(_ top: Int, _ height: Int) -> Int { height - (top == 0 ? 1 : 0) }

    /// The rows lines `from...through` take at `width`, counted until past `limit`.
    private func rows(_ from: Int, _ through: Int, width: Int, over limit: Int) -> Int {
        var n = 0
        var i = from
        while i <= through && n <= limit {
            n += laidOut(i).rows(width: width, scrollX: scrollX).count
            i += 1
        }
        return n
    }

    /// A match in a line that does not wrap (code, a table, prose with wrap off) and sits
    /// outside the columns in view: scrolled sideways to show it, a step of lead before it.
    private mutating func scrollSideways(to m: OutputSearch.Match, width: Int) {
        let line = laidOut(m.line)
        guard line.wrap == .none else { return }
        let room = max(1, width - line.prefix.width - line.trailer.width)
        let start = m.column - line.prefix.width
        let end = start + m.width
        guard start < scrollX || end > scrollX + room else { return }
        scrollX = max(0, start - Self.sidewaysStep)
        if end - scrollX > room { scrollX = max(0, end - room) }
    }

    /// The current hit's line: each of its rows on the panel colour from the margin on, and
    /// the selection marker in the margin of its first row (seen without colour too).
    func markHitRow(
        into buffer: inout CellBuffer, y: Int, from x: Int, to maxX: Int, first: Bool, context: RenderContext
    ) {
        buffer.fill(Rect(x: x, y: y, width: maxX - x, height: 1), style: CellStyle(bg: .panel))
        guard first else { return }
        buffer.write(context.glyphs.selectionMarker, x: x, y: y, style: CellStyle(fg: .accent, attributes: .bold))
    }
}

/// One row of the output's body, and the rendered line it belongs to (nil: the line saying
/// what is older).
struct BodyRow {
    var text: StyledLine
    var line: Int?
    /// The line's first row.
    var isFirst: Bool
}
