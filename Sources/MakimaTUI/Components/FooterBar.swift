/// The bottom line: key hints from the key map (as many as fit, in order), or the command
/// line while it is open.
public enum FooterBar {
    public static let background: ColorRole = .panel

    /// Hints from the left; `status` (a pane's state, such as FOLLOWING) flush right, taking
    /// room from the hints first.
    public static func render(
        hints: [KeyBinding], status: String? = nil, into buffer: inout CellBuffer, row: Rect, context: RenderContext
    ) {
        guard !row.isEmpty else { return }
        buffer.fill(row.row(0), style: CellStyle(fg: .body, bg: background))
        var room = row.width - 2
        if let status, !status.isEmpty {
            let s = StyledLine(status, CellStyle(fg: .foreground, attributes: .bold)).truncated(
                to: max(0, row.width / 2), ellipsis: context.glyphs.ellipsis)
            buffer.write(s, x: row.maxX - 1 - s.width, y: row.y, maxX: row.maxX - 1)
            room -= s.width + 2
        }
        let line = hintLine(hints, width: max(0, room))
        buffer.write(line, x: row.x + 1, y: row.y, maxX: row.maxX - 1)
    }

    /// Whole hints only: one that does not fit is left out, never cut.
    public static func hintLine(_ hints: [KeyBinding], width: Int) -> StyledLine {
        var line = StyledLine()
        for h in hints {
            var piece = StyledLine(line.spans.isEmpty ? "" : "  ", .plain)
            piece.append(h.label, CellStyle(fg: .accent, attributes: .bold))
            piece.append(" " + h.hint, CellStyle(fg: .foregroundMuted))
            if line.width + piece.width > width { break }
            line.append(piece)
        }
        return line
    }

    /// A question that waits for one key (`Quit? y/n`), in bold warn.
    public static func renderPrompt(_ text: String, into buffer: inout CellBuffer, row: Rect, context: RenderContext) {
        guard !row.isEmpty else { return }
        buffer.fill(row.row(0), style: CellStyle(fg: .body, bg: background))
        let line = StyledLine(" " + text + " ", CellStyle(fg: .warn, attributes: [.bold, .reverse]))
        buffer.write(line.truncated(to: row.width - 1, ellipsis: context.glyphs.ellipsis), x: row.x + 1, y: row.y)
    }

    public static func renderCommandLine(
        _ state: CommandLineState, into buffer: inout CellBuffer, row: Rect, context: RenderContext
    ) {
        guard !row.isEmpty else { return }
        buffer.fill(row.row(0), style: CellStyle(fg: .body, bg: background))
        var line = StyledLine(":", CellStyle(fg: .accent, attributes: .bold))
        line.append(state.text, CellStyle(fg: .foreground))
        line.append(" ", CellStyle(fg: .accent, attributes: .reverse))
        if !state.message.isEmpty {
            line.append("  " + state.message, CellStyle(fg: .foregroundMuted))
        }
        buffer.write(line.truncated(to: row.width - 2, ellipsis: context.glyphs.ellipsis), x: row.x + 1, y: row.y)
    }
}

/// The `?` overlay: every binding that applies to the current pane, by context, generated
/// from the key map. Scrolls with j/k when it does not fit.
public enum HelpOverlay {
    /// The overlay's text lines (before any scrolling): section titles and `keys  description`.
    public static func lines(_ sections: [(context: KeyContext, bindings: [KeyBinding])], width: Int) -> [StyledLine] {
        let keyWidth = min(16, (sections.flatMap(\.bindings).map { CellWidth.of($0.label) }.max() ?? 4) + 2)
        var out: [StyledLine] = []
        for (i, section) in sections.enumerated() {
            if i > 0 { out.append(StyledLine()) }
            out.append(StyledLine(section.context.title, CellStyle(fg: .foregroundMuted, attributes: .bold)))
            for b in section.bindings {
                var line = StyledLine(TextLayout.pad(b.label, to: keyWidth), CellStyle(fg: .accent, attributes: .bold))
                line.append(b.description, CellStyle(fg: .body))
                out.append(line.truncated(to: width))
            }
        }
        return out
    }

    /// Draws the overlay centred in `region`, starting `scroll` lines down. Returns the
    /// largest useful scroll value.
    @discardableResult
    public static func render(
        _ sections: [(context: KeyContext, bindings: [KeyBinding])], scroll: Int,
        into buffer: inout CellBuffer, region: Rect, context: RenderContext
    ) -> Int {
        let width = min(region.width - 4, 84)
        let body = lines(sections, width: width - 4)
        let height = min(region.height, body.count + 2)
        let rect = region.centered(width: width, top: region.y + max(0, (region.height - height) / 2), height: height)
        let inner = Card.render(
            into: &buffer, rect: rect, title: "HELP", accessory: "? or Esc closes", context: context)
        let maxScroll = max(0, body.count - inner.height)
        let start = min(max(0, scroll), maxScroll)
        for (i, line) in body.dropFirst(start).prefix(inner.height).enumerated() {
            buffer.write(line, x: inner.x, y: inner.y + i, maxX: inner.maxX)
        }
        if start < maxScroll {
            buffer.write(" j/↓ more ", x: rect.maxX - 12, y: rect.maxY - 1, style: CellStyle(fg: .accent))
        }
        return maxScroll
    }
}

/// Shown instead of the dashboard when the terminal is below the minimum size.
public enum TooSmallNotice {
    public static func render(into buffer: inout CellBuffer, minimum: (width: Int, height: Int), context: RenderContext)
    {
        let lines = [
            StyledLine("MAKIMA", CellStyle(fg: .foreground, attributes: .bold)),
            StyledLine(
                "Make me bigger: I need \(minimum.width)×\(minimum.height) cells,",
                CellStyle(fg: .warn, attributes: .bold)),
            StyledLine("this terminal is \(buffer.width)×\(buffer.height).", CellStyle(fg: .body)),
            StyledLine("Q quits.", CellStyle(fg: .foregroundMuted)),
        ]
        var y = max(0, (buffer.height - lines.count) / 2)
        for line in lines where y < buffer.height {
            let l = line.truncated(to: buffer.width, ellipsis: context.glyphs.ellipsis)
            buffer.write(l, x: max(0, (buffer.width - l.width) / 2), y: y)
            y += 1
        }
    }
}
