import Foundation
import MakimaKit

/// A task's output, following the newest line until the operator scrolls up (`F`, `G` or End
/// follow again). Prose wraps at words (`w` turns that off), code and tables scroll sideways;
/// only the lines in view are laid out each frame. `/` searches, `y`/`Y` copy, `p` shows the
/// plan (see `TaskOutputPane+Reading.swift`).
public struct TaskOutputPane: Pane {
    public let id = PaneID.taskOutput
    public var section: PaneID { .tasks }
    public internal(set) var model: TaskOutputViewModel
    public internal(set) var following = true
    /// The first line in view while not following (an index into `model.lines`).
    public internal(set) var top = 0
    /// The lines on screen at the last frame (`y` copies them).
    var shownTop = 0
    var shownLines = 1
    var endInView = true
    /// Cells code and tables (and prose, with wrap off) are scrolled left by.
    public internal(set) var scrollX = 0
    /// Prose wraps at words; off, it is cut at the edge and scrolls sideways like code.
    public internal(set) var wrapProse = true
    public internal(set) var planOpen = false
    /// The search over the output; `searching` while its query is being typed.
    public internal(set) var search = OutputSearch()
    public internal(set) var searching = false
    /// `g` was pressed: the view stays on the first line while older output comes in front,
    /// until another key moves it.
    public internal(set) var seekingStart = false
    /// The current match is to be placed with its context in view (`placeCurrentMatch`) once
    /// the body's size is known.
    var revealPending = false
    /// The body's size at the last frame (zero before the first).
    var bodySize = (width: 0, height: 0)

    public init(model: TaskOutputViewModel) { self.model = model }

    public var title: String { "TASK" }
    public var shownLink: DeepLink? { .task(model.taskID) }
    /// With a query kept, `n`/`N` are the search's (`.search`); without, the needs-you list's.
    public var keyContexts: [KeyContext] { search.query.isEmpty ? [.output] : [.search, .output] }
    public var isTopLevel: Bool { false }
    public var isEditingText: Bool { searching }

    /// Scrolls code and tables sideways (prose keeps wrapping); never left of the first column.
    public mutating func scrollSideways(by cells: Int) { scrollX = max(0, scrollX + cells) }

    public mutating func update(_ new: TaskOutputViewModel) {
        let shift = new.origin - model.origin
        top = seekingStart ? 0 : max(0, top - shift)
        // Comparing every line costs as much as a frame: only a search needs to know.
        let changed = !search.query.isEmpty && new.lines != model.lines
        model = new
        if changed { refreshSearch(shift: shift) }
    }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        if let response = handleReading(action) { return response }
        let page = max(1, shownLines - 1)
        seekingStart = action == .top
        switch action {
        case .moveUp:
            pause()
            top = max(0, top - 1)
        case .pageUp:
            pause()
            top = max(0, top - page)
        case .moveDown, .pageDown:
            guard !following else { return .handled }
            if endInView {
                following = true
            } else {
                top = min(model.lines.count - 1, top + (action == .moveDown ? 1 : page))
            }
        case .top:
            following = false
            top = 0
        case .bottom: following = true
        default: return .ignored
        }
        // At the top of what is held, with older output on the server: fetch it.
        if !following && top == 0 && model.older == .available {
            return .request(.loadOlderOutput(taskID: model.taskID, toStart: seekingStart))
        }
        return .handled
    }

    mutating func pause() {
        if following {
            following = false
            top = shownTop
        }
    }

    /// A search still going: the loop draws again, and each frame takes it one step further.
    public var hasPendingWork: Bool { !search.isComplete }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        advanceSearch()
        let area = region.inset(left: 1, right: 1)
        buffer.fill(region, style: .plain)
        buffer.hyperlinks = model.links
        let detail = "\(model.lineCount) lines"
        PaneHeader.render(title: title, term: nil, detail: detail, into: &buffer, row: area.row(0), context: context)
        var y = area.y + 1
        for line in TaskOutputHeader.lines(model, width: area.width, now: Date(), context: context)
        where y < area.maxY {
            buffer.write(line, x: area.x, y: y, maxX: area.maxX)
            y += 1
        }
        y = renderPlan(into: &buffer, area: area, y: y, context: context)
        guard y < area.maxY else { return }
        buffer.writeBodyRule(across: area, y: y, glyphs: context.glyphs)
        let body = area.inset(top: y + 1 - area.y)
        guard !body.isEmpty else { return }
        if model.lines.isEmpty {
            buffer.writeEmptyBodyNote(model.note ?? "no output yet", in: body)
            return
        }
        bodySize = (body.width, body.height)
        placeCurrentMatch()
        var rows =
            following
            ? rowsEndingAtBottom(width: body.width, height: body.height)
            : rowsFromTop(width: body.width, height: body.height - (top == 0 ? 1 : 0))
        // Above the first line held, its top line says what is older: loading, the start, …
        if !following && top == 0 {
            let note = StyledLine(
                model.older.text(glyphs: context.glyphs), CellStyle(fg: .foregroundMuted, attributes: .italic))
            rows.insert(BodyRow(text: note, line: nil, isFirst: true), at: 0)
        }
        let hitLine = search.currentMatch?.line
        for (i, row) in rows.enumerated() {
            if let hitLine, row.line == hitLine {
                markHitRow(
                    into: &buffer, y: body.y + i, from: region.x, to: body.maxX, first: row.isFirst, context: context)
            }
            buffer.write(row.text, x: body.x, y: body.y + i, maxX: body.maxX)
        }
    }

    /// The plan: one line saying it is there (collapsed), or its lines up to half the view.
    private func renderPlan(into buffer: inout CellBuffer, area: Rect, y: Int, context: RenderContext) -> Int {
        guard !model.plan.isEmpty, y < area.maxY else { return y }
        let marker = planOpen ? "▾" : "▸"
        var line = StyledLine(
            (context.glyphs == .ascii ? (planOpen ? "v" : ">") : marker) + " PLAN//",
            CellStyle(fg: .accent, attributes: .bold))
        line.append(
            planOpen ? "  p hides" : "  \(model.plan.count) lines · p shows", CellStyle(fg: .foregroundMuted))
        buffer.write(line, x: area.x, y: y, maxX: area.maxX)
        guard planOpen else { return y + 1 }
        let room = max(1, (area.maxY - y - 1) / 2)
        var rows: [StyledLine] = []
        for planLine in model.plan where rows.count <= room {
            rows += planLine.rows(width: area.width - 2)
        }
        let cut = rows.count > room
        var next = y + 1
        for (i, row) in rows.prefix(room).enumerated() {
            let shown =
                cut && i == room - 1 ? StyledLine(context.glyphs.ellipsis, CellStyle(fg: .foregroundMuted)) : row
            buffer.write(shown, x: area.x + 2, y: next, maxX: area.maxX)
            next += 1
        }
        return next
    }

    /// A line as laid out now: prose unwrapped when wrap is off.
    func laidOut(_ index: Int) -> RenderedLine {
        var line = model.lines[index]
        if !wrapProse && line.wrap == .words { line.wrap = .none }
        return line
    }

    /// A line as drawn now: laid out, highlighted where search matches fall.
    private func displayed(_ index: Int) -> RenderedLine {
        let line = laidOut(index)
        guard !search.matches.isEmpty else { return line }
        let current = search.currentMatch
        return line.highlighting(
            search.matches(onLine: index).map { m in
                let style =
                    m == current
                    ? CellStyle(fg: .background, bg: .accent, attributes: .bold)
                    : CellStyle(fg: .background, bg: .warn)
                return (m, style)
            })
    }

    /// Line `index`'s rows, each knowing its line.
    private func bodyRows(_ index: Int, width: Int) -> [BodyRow] {
        displayed(index).rows(width: width, scrollX: scrollX).enumerated().map {
            BodyRow(text: $0.element, line: index, isFirst: $0.offset == 0)
        }
    }

    private mutating func rowsEndingAtBottom(width: Int, height: Int) -> [BodyRow] {
        var rows: [BodyRow] = []
        var i = model.lines.count - 1
        while i >= 0 && rows.count < height {
            rows.insert(contentsOf: bodyRows(i, width: width), at: 0)
            i -= 1
        }
        shownTop = i + 1
        shownLines = model.lines.count - shownTop
        endInView = true
        return Array(rows.suffix(height))
    }

    private mutating func rowsFromTop(width: Int, height: Int) -> [BodyRow] {
        top = min(max(0, top), model.lines.count - 1)
        guard height > 0 else { return [] }
        var rows: [BodyRow] = []
        var i = top
        while i < model.lines.count && rows.count < height {
            rows.append(contentsOf: bodyRows(i, width: width))
            i += 1
        }
        shownTop = top
        shownLines = i - top
        endInView = i >= model.lines.count && rows.count <= height
        return Array(rows.prefix(height))
    }
}

/// The two header lines: status pill and title, then the task's facts.
enum TaskOutputHeader {
    static func lines(_ model: TaskOutputViewModel, width: Int, now: Date, context: RenderContext) -> [StyledLine] {
        var heading = StyledLine()
        if let s = model.status {
            let colour = StatusStyle.task(s)
            heading.append(
                " " + s.rawValue.uppercased() + " ", CellStyle(fg: .background, bg: colour, attributes: .bold))
            heading.append("  ", .plain)
        }
        heading.append(oneLine(model.title), CellStyle(fg: .foreground, attributes: .bold))
        var facts = StyledLine()
        for (label, value) in model.facts.items(now: now) {
            if !facts.spans.isEmpty { facts.append("  ", .plain) }
            facts.append(label + " ", CellStyle(fg: .foregroundMuted))
            facts.append(oneLine(value), CellStyle(fg: .body))
        }
        var out = [heading.truncated(to: width, ellipsis: context.glyphs.ellipsis)]
        if !facts.spans.isEmpty { out.append(facts.truncated(to: width, ellipsis: context.glyphs.ellipsis)) }
        return out
    }
}
