import MakimaKit

/// What the task output view shows: the task's header and its output as rendered lines
/// (markdown, logs and cards, see `OutputDocument`).
public struct TaskOutputViewModel: Equatable, Sendable {
    public var taskID: String
    public var title: String
    public var status: TaskStatus?
    public var lines: [RenderedLine]
    /// Lines dropped off the front before `lines[0]` (the scroll position stays on its line).
    public var firstLineNumber: Int
    /// Said when there is no output (loading, or why it could not be loaded).
    public var note: String?

    public init(
        taskID: String, title: String, status: TaskStatus? = nil, lines: [RenderedLine] = [],
        firstLineNumber: Int = 0, note: String? = nil
    ) {
        self.taskID = taskID
        self.title = title
        self.status = status
        self.lines = lines
        self.firstLineNumber = firstLineNumber
        self.note = note
    }
}

/// A task's output, following the newest line until the operator scrolls up (G follows
/// again). Prose wraps at words, code and tables scroll sideways; only the lines in view are
/// laid out each frame.
public struct TaskOutputPane: Pane {
    public let id = PaneID.tasks
    public private(set) var model: TaskOutputViewModel
    public private(set) var following = true
    /// The first line in view while not following (an index into `model.lines`).
    public private(set) var top = 0
    private var shownTop = 0
    private var shownLines = 1
    private var endInView = true
    /// Cells code and tables are scrolled left by.
    public private(set) var scrollX = 0

    public init(model: TaskOutputViewModel) { self.model = model }

    public var title: String { "TASK" }
    public var keyContexts: [KeyContext] { [.output] }
    public var isTopLevel: Bool { false }

    /// Scrolls code and tables sideways (prose keeps wrapping); never left of the first column.
    public mutating func scrollSideways(by cells: Int) { scrollX = max(0, scrollX + cells) }

    public mutating func update(_ new: TaskOutputViewModel) {
        top = max(0, top - (new.firstLineNumber - model.firstLineNumber))
        model = new
    }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        let page = max(1, shownLines - 1)
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
        // At the top of what is held, with older lines dropped: fetch them.
        if !following && top == 0 && model.firstLineNumber > 0 {
            return .request(.loadOlderOutput(taskID: model.taskID))
        }
        return .handled
    }

    private mutating func pause() {
        if following {
            following = false
            top = shownTop
        }
    }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        let area = region.inset(left: 1, right: 1)
        buffer.fill(region, style: .plain)
        let mode = following ? "FOLLOWING" : "PAUSED · G follows"
        let detail = "\(model.firstLineNumber + model.lines.count) lines · \(mode)"
        PaneHeader.render(title: title, term: nil, detail: detail, into: &buffer, row: area.row(0), context: context)
        var heading = StyledLine(oneLineTitle, CellStyle(fg: .foreground, attributes: .bold))
        if let s = model.status {
            heading =
                StyledLine(s.rawValue.uppercased() + "  ", CellStyle(fg: StatusStyle.task(s), attributes: .bold))
                + heading
        }
        buffer.write(
            heading.truncated(to: area.width, ellipsis: context.glyphs.ellipsis), x: area.x, y: area.y + 1,
            maxX: area.maxX)
        buffer.write(
            String(repeating: context.glyphs.ruleHorizontal, count: max(0, area.width)), x: area.x, y: area.y + 2,
            style: CellStyle(fg: .borderMuted), maxX: area.maxX)
        let body = area.inset(top: 3)
        guard !body.isEmpty else { return }
        if model.lines.isEmpty {
            buffer.write(
                model.note ?? "no output yet", x: body.x, y: body.y,
                style: CellStyle(fg: .foregroundMuted, attributes: .italic), maxX: body.maxX)
            return
        }
        let rows =
            following
            ? rowsEndingAtBottom(width: body.width, height: body.height)
            : rowsFromTop(width: body.width, height: body.height)
        for (i, row) in rows.enumerated() { buffer.write(row, x: body.x, y: body.y + i, maxX: body.maxX) }
    }

    private var oneLineTitle: String { model.title.split(whereSeparator: \.isNewline).joined(separator: " ") }

    private mutating func rowsEndingAtBottom(width: Int, height: Int) -> [StyledLine] {
        var rows: [StyledLine] = []
        var i = model.lines.count - 1
        while i >= 0 && rows.count < height {
            rows.insert(contentsOf: model.lines[i].rows(width: width, scrollX: scrollX), at: 0)
            i -= 1
        }
        shownTop = i + 1
        shownLines = model.lines.count - shownTop
        endInView = true
        return Array(rows.suffix(height))
    }

    private mutating func rowsFromTop(width: Int, height: Int) -> [StyledLine] {
        top = min(max(0, top), model.lines.count - 1)
        var rows: [StyledLine] = []
        var i = top
        while i < model.lines.count && rows.count < height {
            rows.append(contentsOf: model.lines[i].rows(width: width, scrollX: scrollX))
            i += 1
        }
        shownTop = top
        shownLines = i - top
        endInView = i >= model.lines.count && rows.count <= height
        return Array(rows.prefix(height))
    }
}
