import Foundation
import MakimaKit

/// What the directive view shows: the directive, its pending question in full, and the task
/// that asked. Server text was cleaned at decode time.
public struct DirectiveDetailModel: Equatable, Sendable {
    public var id: String
    public var title: String
    public var status: String
    public var hasPendingQuestion = false
    /// The whole question, line breaks kept.
    public var question: String?
    public var askedAgo = ""
    public var updatedAgo = ""
    public var taskID: String?
    /// The asking task's title and status when the stores know the task.
    public var taskTitle: String?
    public var taskStatus: TaskStatus?

    /// The model from the stores; nil when no list holds the directive.
    @MainActor
    public static func from(_ hub: StoreHub, id: String, now: Date) -> DirectiveDetailModel? {
        guard
            let d = hub.directives.list.items.first(where: { $0.id == id })
                ?? hub.directives.pending.items.first(where: { $0.id == id })
        else { return nil }
        let taskID = d.pendingQuestion?.taskID
        let task = taskID.flatMap { TaskLookup.find($0, in: hub) }
        let clock = hub.connection.serverClock
        return DirectiveDetailModel(
            id: d.id, title: oneLine(d.title), status: oneLine(d.status), hasPendingQuestion: d.hasPendingQuestion,
            question: d.pendingQuestion?.text, askedAgo: ago(d.pendingQuestion?.askedAt, now: now, clock: clock),
            updatedAgo: ago(d.updatedAt, now: now, clock: clock), taskID: taskID,
            taskTitle: taskID.map { TaskLookup.title($0, task, in: hub) },
            taskStatus: task?.status)
    }
}

/// Finds a task in whatever the stores hold (its detail, else the task table).
@MainActor
public enum TaskLookup {
    public static func find(_ id: String, in hub: StoreHub) -> MeshTask? {
        hub.tasks.task(id: id)
    }

    /// What a row calls the task `id` (`task`, as the stores hold it, or nil when they do not):
    /// its title, or `loading… c2b961e9` until its fetch arrives (`not on the server · …`
    /// after a 404), never a bare id in a title's place.
    public static func title(_ id: String, _ task: MeshTask?, in hub: StoreHub) -> String {
        oneLine((task ?? MeshTask(id: id, status: .unknown)).rowTitle(notFound: hub.missing.links[.task(id)] == true))
    }
}

/// The directive view: status, the pending question in full (scrollable when long), and the
/// task that asked, which Enter opens.
public struct DirectiveDetailPane: Pane {
    public let id = PaneID.directive
    public var section: PaneID { .directives }
    public private(set) var model: DirectiveDetailModel
    public private(set) var scroll = ScrollText()

    public init(model: DirectiveDetailModel) { self.model = model }

    public var title: String { "DIRECTIVE" }
    public var keyContexts: [KeyContext] { [.detail] }
    public var isTopLevel: Bool { false }
    public var crumb: Crumb { Crumb("DIRECTIVE", model.title) }
    /// The task that asked (named with its status when the stores know it).
    public var shownLink: DeepLink? { .directive(model.id) }
    public var detailLinks: [DeepLink] { model.taskID.map { [.task($0)] } ?? [] }

    public mutating func update(_ new: DirectiveDetailModel) { model = new }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        if scroll.handle(action) { return .handled }
        if action == .open, let task = model.taskID { return .request(.open(.task(task))) }
        return .ignored
    }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        let area = region.inset(left: 1, right: 1)
        buffer.fill(region, style: .plain)
        PaneHeader.render(
            title: title, term: .directives, detail: model.updatedAgo.isEmpty ? nil : "updated " + model.updatedAgo,
            into: &buffer, row: area.row(0), context: context)
        buffer.write(
            StyledLine(model.title, CellStyle(fg: .foreground, attributes: .bold)).truncated(
                to: area.width, ellipsis: context.glyphs.ellipsis), x: area.x, y: area.y + 1, maxX: area.maxX)
        let body = area.inset(top: 3)
        guard !body.isEmpty else { return }
        scroll.render(rows(width: body.width, glyphs: context.glyphs), into: &buffer, rect: body)
    }

    func rows(width: Int, glyphs: Glyphs) -> [StyledLine] {
        let w = width
        var rows: [StyledLine] = []
        let statusStyle = StatusStyle.directiveStyle(model.status, pendingQuestion: false)
        rows += DetailRows.field("Status", model.status.uppercased(), statusStyle, width: w)
        rows += DetailRows.field("Id", model.id, CellStyle(fg: .foregroundMuted), width: w)
        rows.append(StyledLine())
        if let q = model.question {
            let detail = model.askedAgo.isEmpty ? "waiting" : "asked " + model.askedAgo
            rows.append(DetailRows.heading("Question", detail: detail, width: w, glyphs: glyphs))
            rows += DetailRows.paragraph(q, CellStyle(fg: .warn, attributes: .bold), width: w, indent: 2)
            rows.append(StyledLine())
            rows.append(DetailRows.heading("Asked by", width: w, glyphs: glyphs))
            if let task = model.taskID {
                var line = StyledLine(glyphs.selectionMarker + " ", CellStyle(fg: .accent, attributes: .bold))
                line.append(model.taskTitle ?? task, CellStyle(fg: .foreground, attributes: .bold))
                if let s = model.taskStatus { line.append("  " + s.rawValue.uppercased(), StatusStyle.taskStyle(s)) }
                rows.append(line)
                rows.append(
                    StyledLine("  Enter opens its output", CellStyle(fg: .foregroundMuted, attributes: .italic)))
            } else {
                rows.append(StyledLine("  the server did not say which task", CellStyle(fg: .foregroundMuted)))
            }
        } else {
            rows.append(
                StyledLine(
                    model.hasPendingQuestion
                        ? "a question is waiting (its text has not arrived)" : "no question waiting",
                    CellStyle(fg: .foregroundMuted, attributes: .italic)))
        }
        return rows
    }
}

extension DirectiveDetailPane {
    /// The directive's keys, answered by `handle`: the scroll keys (`ScrollText`) and Enter.
    static let keyBindings: [KeyBinding] =
        KeyBinding.scrolling(.detail, down: "scroll down", up: "scroll up", top: "top", bottom: "bottom") + [
            KeyBinding([.enter], .open, "open the task that asked", context: .detail, footer: "open task")
        ]
}
