import Foundation
import MakimaKit

/// The list panes' view models from the stores. Pure: the same stores and `now` give the
/// same rows. Server text was cleaned at decode time; here it is folded onto one line.
@MainActor
public enum ListPaneModels {
    public static func contracts(_ hub: StoreHub, status: ContractStatus?, now: Date) -> ListPaneViewModel {
        ListColumns.contracts.model(
            hub.contracts.list(status), filter: status?.rawValue ?? "all", now: now, clock: hub.connection.serverClock)
    }

    /// Tasks newest activity first (ties by id), so a live status change moves its row to the
    /// top. When the pane is wide enough the daemon and contract columns show past the age.
    ///
    /// The list is a window over the task table (`TasksStore.window`): a count, and rows read
    /// by position when a frame draws them; `/` is a query over the table's title index. A
    /// store change costs the count, the daemon and contract names (what the columns look up)
    /// and the rows in view, not the mesh's tasks.
    public static func tasks(_ hub: StoreHub, status: TaskStatus?, contractID: String? = nil, now: Date)
        -> ListPaneViewModel
    {
        let filter = TasksStore.Filter(status: status, contractID: contractID)
        let state = hub.tasks.list(filter)
        let names = TaskRowNames(hub)
        let header = FittedRow(
            RowLine.headerColumns([("title", 52), ("status", 10), ("updated", 10), ("daemon", 18), ("contract", nil)]))
        let reserve = header.reserve
        let clock = hub.connection.serverClock
        let window = taskWindow(hub.tasks.window(filter)) {
            taskRow($0, names: names, reserve: reserve, now: now, clock: clock)
        }
        var label = status?.rawValue ?? "all"
        if let c = contractID { label += " · " + contractLabel(names.contracts[c] ?? c) }
        var m = model(window, state, now: now, noun: "task", filter: label)
        m.fittedColumns = header
        m.columns = header.line(fitting: .max)
        return m
    }

    /// A task list as the list view reads it: rows made from the table's rows when drawn, and
    /// `/` answered by the table (at most `TaskRows`' bound of matches).
    static func taskWindow(_ rows: TaskRowsWindow, row: @escaping @Sendable (MeshTask) -> ListRow) -> ListWindow {
        ListWindow(
            count: rows.count, id: { rows.task(at: $0).id }, searchText: { rows.task(at: $0).displayTitle },
            row: { row(rows.task(at: $0)) }, position: { rows.position(of: $0) },
            search: { needle in
                let found = rows.matching(needle)
                return ListWindow(
                    count: found.count, id: { found.ids[$0] }, searchText: { found.task(at: $0).displayTitle },
                    row: { row(found.task(at: $0)) }, position: { found.position(of: $0) }, capped: found.capped)
            })
    }

    /// `contract Billing`; a name that already says it (`Contract 0`) is not prefixed again.
    nonisolated static func contractLabel(_ name: String) -> String {
        name.lowercased().hasPrefix("contract") ? name : "contract " + name
    }

    /// One task's row; `/` matches titles only, not the other columns. The title narrows first
    /// when the pane is short of cells (`FittedRow`), as the header's does.
    nonisolated package static func taskRow(
        _ t: MeshTask, names: TaskRowNames, reserve: Int, now: Date, clock: ClockOffset
    ) -> ListRow {
        var columns: [(text: String, width: Int?, style: CellStyle)] = [
            (oneLine(t.rowTitle(notFound: names.missingTasks.contains(t.id))), 52, CellStyle(fg: .foreground)),
            (t.status.rawValue.uppercased(), 10, StatusStyle.taskStyle(t.status)),
        ]
        let placed = t.daemonID != nil || t.contractID != nil
        columns.append((ago(t.updatedAt, now: now, clock: clock), placed ? 10 : nil, CellStyle(fg: .foregroundMuted)))
        if placed {
            columns.append((t.daemonID.map { names.hosts[$0] ?? $0 } ?? "", 18, CellStyle(fg: .body)))
            columns.append((t.contractID.map { names.contracts[$0] ?? $0 } ?? "", nil, CellStyle(fg: .foregroundMuted)))
        }
        return ListRow(id: t.id, fitted: FittedRow(columns, reserve: reserve), searchText: t.displayTitle)
    }

    public static func directives(_ hub: StoreHub, now: Date) -> ListPaneViewModel {
        let state = hub.directives.list
        let rows = state.items.map { d in
            var r = RowLine()
            r.column(oneLine(d.title), 44, CellStyle(fg: .foreground))
            r.column(oneLine(d.status).uppercased(), 10, CellStyle(fg: .foregroundMuted))
            if d.hasPendingQuestion {
                r.column(
                    "? " + oneLine(d.pendingQuestion?.text ?? "a question is waiting"), nil,
                    CellStyle(fg: .warn, attributes: .bold))
            }
            return ListRow(id: d.id, line: r.line)
        }
        let waiting = state.items.filter(\.hasPendingQuestion).count
        var m = model(rows, state, now: now, noun: "directive", filter: waiting > 0 ? "\(waiting) waiting" : nil)
        m.columns = RowLine.header([("directive", 44), ("status", 10), ("question", nil)])
        return m
    }

    public static func daemons(_ hub: StoreHub, now: Date) -> ListPaneViewModel {
        let state = hub.daemons.list
        let online = state.items.filter { $0.status.isOnline }.count
        return ListColumns.daemons.model(
            state, filter: "\(online) online / \(state.items.count - online) offline", now: now,
            clock: hub.connection.serverClock)
    }

    public static func listen(_ hub: StoreHub, now: Date) -> ListPaneViewModel {
        ListColumns.listen.model(hub.listen.list, filter: nil, now: now, clock: hub.connection.serverClock)
    }

    /// Rows plus the header detail (filter · count · progress · STALE age · cut · error) and
    /// the empty message. While a long read is under way the title says how far it has come
    /// (`ALL · 43,000 / …`, after the count of the list still shown when there is one); a list
    /// the server gave cut at a bound says so (`CUT: over 512 MB`).
    package static func model<T>(_ rows: [ListRow], _ state: ListState<T>, now: Date, noun: String, filter: String?)
        -> ListPaneViewModel
    {
        model(ListWindow(rows: rows), state, now: now, noun: noun, filter: filter)
    }

    static func model<T>(_ rows: ListWindow, _ state: ListState<T>, now: Date, noun: String, filter: String?)
        -> ListPaneViewModel
    {
        let freshness = Freshness.of(state, now: now)
        var detail: [String] = []
        if let filter { detail.append(filter.uppercased()) }
        if state.hasLoaded || rows.count > 0 { detail.append("\(rows.count) \(noun)\(rows.count == 1 ? "" : "s")") }
        let progress = state.isLoading ? state.received : nil
        if let progress { detail.append("\(groupedDigits(progress)) / …") }
        if let marker = freshness.marker, !(progress != nil && freshness == .loading) { detail.append(marker) }
        if let bound = state.bound { detail.append("CUT: \(bound)") }
        if case .failed(_, let message) = freshness { detail.append(message) }
        let empty: String
        switch freshness {
        case .loading: empty = "loading…"
        case .failed(nil, let message): empty = "could not load: \(message)"
        case .unknown: empty = "no data yet"
        default: empty = "no \(noun)s"
        }
        var m = ListPaneViewModel(emptyMessage: empty, detail: detail.joined(separator: " · "))
        m.window = rows
        return m
    }
}

/// The names a task row shows for its daemon and contract, from the lists the stores hold.
package struct TaskRowNames: Sendable {
    var hosts: [String: String] = [:]
    var contracts: [String: String] = [:]
    /// Tasks the server answered 404 for (their rows say so rather than `loading…`).
    var missingTasks: Set<String> = []

    @MainActor
    package init(_ hub: StoreHub) {
        hosts = Dictionary(
            hub.daemons.list.items.map { ($0.id, oneLine($0.hostname ?? $0.id)) }, uniquingKeysWith: { a, _ in a })
        for list in hub.contracts.lists.values { for c in list.items { contracts[c.id] = oneLine(c.name) } }
        for c in hub.contracts.details.values { contracts[c.id] = oneLine(c.name) }
        for link in hub.missing.links.keys where link.kind == .task { missingTasks.insert(link.id) }
    }
}
