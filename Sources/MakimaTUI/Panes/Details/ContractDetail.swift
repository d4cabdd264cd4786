import Foundation
import MakimaKit

/// What the contract view shows: the contract's fields and its tasks, newest first.
public struct ContractDetailModel: Equatable, Sendable {
    public var id: String
    public var name: String
    public var phase: String
    public var status: ContractStatus
    public var autonomousLoop = false
    public var description: String?
    public var createdAgo = ""
    public var updatedAgo = ""
    /// Its tasks, status-coloured, newest first (row id = task id).
    public var tasks: [ListRow] = []
    /// Said when there are no tasks (loading, none).
    public var tasksNote = "no tasks"

    /// Shown until the contract arrives.
    public static func loading(_ id: String) -> ContractDetailModel {
        ContractDetailModel(
            id: id, name: "…", phase: "", status: ContractStatus(rawValue: "loading"), tasksNote: "loading…")
    }

    /// The most tasks the view lists (a contract's newest; the Tasks pane has them all).
    static let maxTasks = 2_000

    /// The tasks query the view needs (the server filters by contract).
    public static func tasksQuery(_ id: String) -> ListQuery { .tasks(status: nil, contractID: id) }

    /// The model from the stores; nil while no store holds the contract.
    @MainActor
    public static func from(_ hub: StoreHub, id: String, now: Date) -> ContractDetailModel? {
        let contract =
            hub.contracts.details[id]
            ?? hub.contracts.lists.values.lazy.compactMap { $0.items.first { $0.id == id } }.first
        guard let c = contract else { return nil }
        let own = hub.tasks.list(.init(contractID: id))
        // The contract's tasks in the task table (every list's, kept by status events), newest
        // first, at most `maxTasks`, and those fetched one by one.
        var byID: [String: MeshTask] = [:]
        for t in hub.tasks.rows(.init(contractID: id), limit: Self.maxTasks) { byID[t.id] = t }
        for t in hub.tasks.details.values where t.contractID == id && byID[t.id] == nil {
            byID[t.id] = hub.tasks.task(id: t.id) ?? t
        }
        let tasks = byID.values.sorted {
            ($0.createdAt ?? $0.updatedAt ?? .distantPast, $0.id) > (
                $1.createdAt ?? $1.updatedAt ?? .distantPast, $1.id
            )
        }
        let clock = hub.connection.serverClock
        let rows = tasks.map { t in
            var r = RowLine()
            r.column(t.status.rawValue.uppercased(), 10, StatusStyle.taskStyle(t.status))
            r.column(oneLine(t.displayTitle), 48, CellStyle(fg: .foreground))
            r.column(ago(t.createdAt ?? t.updatedAt, now: now, clock: clock), nil, CellStyle(fg: .foregroundMuted))
            return ListRow(id: t.id, line: r.line, searchText: t.displayTitle)
        }
        let note: String
        if let e = own.lastError, rows.isEmpty {
            note = "could not load its tasks: \(oneLine(e))"
        } else {
            note = own.hasLoaded ? "no tasks" : "loading tasks…"
        }
        return ContractDetailModel(
            id: c.id, name: oneLine(c.name), phase: oneLine(c.phase), status: c.status,
            autonomousLoop: c.autonomousLoop, description: c.description,
            createdAgo: ago(c.createdAt, now: now, clock: clock),
            updatedAgo: ago(c.updatedAt, now: now, clock: clock), tasks: rows, tasksNote: note)
    }
}

/// The contract view: its fields and description above, its tasks below as a list whose
/// Enter opens the task's output.
public struct ContractDetailPane: Pane {
    public let id = PaneID.contract
    public var section: PaneID { .contracts }
    public private(set) var model: ContractDetailModel
    public private(set) var list: ListView

    public init(model: ContractDetailModel) {
        self.model = model
        list = ListView(rows: model.tasks, emptyMessage: model.tasksNote)
    }

    public var title: String { "CONTRACT" }
    public var keyContexts: [KeyContext] { [.list] }
    public var isEditingText: Bool { list.isEditingFilter }
    public var isTopLevel: Bool { false }
    public var crumb: Crumb { Crumb("CONTRACT", model.name) }
    public var shownLink: DeepLink? { .contract(model.id) }

    public mutating func update(_ new: ContractDetailModel) {
        model = new
        list.emptyMessage = new.tasksNote
        list.setRows(new.tasks)
    }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        if let response = list.handleMovement(action) { return response }
        guard action == .open, let row = list.selectedRow else { return .ignored }
        return .request(.open(.task(row.id)))
    }

    public mutating func edit(_ edit: TextEdit) -> PaneResponse { list.editFilter(edit) ? .handled : .ignored }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        let area = region.inset(left: 1, right: 1)
        buffer.fill(region, style: .plain)
        PaneHeader.render(
            title: title, term: .contracts, detail: "\(model.tasks.count) task\(model.tasks.count == 1 ? "" : "s")",
            into: &buffer, row: area.row(0), context: context)
        let g = context.glyphs
        var head: [StyledLine] = [
            StyledLine(model.name, CellStyle(fg: .foreground, attributes: .bold)).truncated(
                to: area.width, ellipsis: g.ellipsis)
        ]
        var facts = StyledLine(model.status.rawValue.uppercased(), StatusStyle.contractStyle(model.status))
        let dot = CellStyle(fg: .borderMuted)
        facts.append(" \(g.separatorDot) ", dot)
        facts.append("PHASE " + model.phase.uppercased(), CellStyle(fg: .body))
        facts.append(" \(g.separatorDot) ", dot)
        facts.append(
            model.autonomousLoop ? "AUTONOMOUS LOOP ON" : "autonomous loop off",
            model.autonomousLoop ? CellStyle(fg: .accent, attributes: .bold) : CellStyle(fg: .foregroundMuted))
        head.append(facts)
        var ages = StyledLine()
        if !model.createdAgo.isEmpty { ages.append("created " + model.createdAgo, CellStyle(fg: .foregroundMuted)) }
        if !model.updatedAgo.isEmpty {
            if !ages.spans.isEmpty { ages.append(" \(g.separatorDot) ", dot) }
            ages.append("updated " + model.updatedAgo, CellStyle(fg: .foregroundMuted))
        }
        if !ages.spans.isEmpty { head.append(ages) }
        // The description takes at most a third of the pane; the tasks keep the rest.
        if let d = model.description, !d.isEmpty {
            let room = max(1, (area.height - 1) / 3)
            var text = DetailRows.paragraph(d, CellStyle(fg: .bodySoft), width: area.width)
            if text.count > room {
                text = Array(text.prefix(room))
                text[room - 1] = StyledLine(text[room - 1].text + g.ellipsis, CellStyle(fg: .bodySoft))
                    .truncated(to: area.width, ellipsis: g.ellipsis)
            }
            head.append(StyledLine())
            head += text
        }
        var y = area.y + 1
        for line in head where y < area.maxY - 2 {
            buffer.write(line.truncated(to: area.width, ellipsis: g.ellipsis), x: area.x, y: y, maxX: area.maxX)
            y += 1
        }
        y += 1
        guard y < area.maxY else { return }
        buffer.write(DetailRows.heading("Tasks", detail: "newest first", width: area.width, glyphs: g), x: area.x, y: y)
        list.render(
            into: &buffer, rect: Rect(x: area.x, y: y + 1, width: area.width, height: area.maxY - y - 1),
            context: context)
    }
}
