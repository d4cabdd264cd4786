import Foundation
import Observation

// The stores hold what the screen shows. They live on the UI thread (the main thread) only:
// network threads never touch them, they post `SyncUpdate`s that `StoreHub.apply` runs there.

@MainActor @Observable
public final class TasksStore {
    public struct Filter: Hashable, Sendable {
        public var status: TaskStatus?
        public var contractID: String?
        /// The newest `limit` tasks only (Home's recent tasks), or the whole list.
        public var limit: Int?
        public init(status: TaskStatus? = nil, contractID: String? = nil, limit: Int? = nil) {
            self.status = status
            self.contractID = contractID
            self.limit = limit
        }
    }
    /// Each task list's state (fetched when, stale, loading, its error). Its `items` stay
    /// empty: the rows are in the task table (`table`), every list a query over it.
    public var lists: [Filter: ListState<MeshTask>] = [:]
    /// Tasks fetched one by one (the output view, toasts' titles), bounded (`BoundedMap`). A
    /// detail is written into the task table as it arrives, whose row is the task from then
    /// on: the detail adds its plan (a row keeps none), and stands in for a row the table has
    /// no room for (`task(id:)`).
    public var details = BoundedMap<String, MeshTask>()
    /// Output lines of the tasks in `outputRetention` only (see `TaskOutputLRU`).
    public var outputs: [String: TaskOutputBuffer] = [:]
    public private(set) var outputRetention = TaskOutputLRU()
    /// Changes whenever the task table or the status overlay does: what a pane reading the
    /// table observes (the table itself is not observable).
    public private(set) var generation: UInt64 = 0
    /// The task table: the cache's, read through a connection of the UI thread's own, or a
    /// private one in memory (`TaskTable`).
    @ObservationIgnored public private(set) var table = TaskTable.inMemory()
    /// Statuses from events the cache writer has not committed yet (a table the store does not
    /// write itself): shown on the rows and counted at once.
    @ObservationIgnored private var overlay = StatusOverlay()
    /// Details that arrived since the table last changed, shown as they came until its next
    /// change (the engine writes a detail into its row before posting it; by that change the
    /// row says at least as much).
    @ObservationIgnored private var unsettledDetails: Set<String> = []
    /// Which ids already have a name, so `needsName` reads the table once per id, not per event.
    @ObservationIgnored private var names = TaskNameLedger()
    public init() {}

    /// Reads (and writes, when it owns it) another task table: a new server's cache, or none.
    public func useTable(_ new: TaskTable) {
        table.close()
        table = new
        overlay = StatusOverlay()
        unsettledDetails = []
        names.reset()
        generation &+= 1
    }

    /// The task table changed (a list saved, statuses committed by the cache writer): every
    /// window is read again, and overlay entries the table now agrees with are dropped.
    public func tableChanged(now: Date = Date()) {
        overlay.settle(with: table, now: now)
        unsettledDetails = []
        names.tableChanged()
        generation &+= 1
    }

    /// Tasks fetched because an event named them before any list held them: into the table
    /// when the store writes it (the cache writer has written them otherwise), rows read again.
    func named(_ tasks: [MeshTask], now: Date = Date()) {
        names.learn(tasks)
        if table.ownsWrites { table.save(tasks, filter: Filter(), whole: false) }
        tableChanged(now: now)
    }

    /// A task fetched on its own: kept as a detail (for its plan), and its fields into the
    /// table like a task named by an event (the engine has written them into a cache's table
    /// before posting it), rows read again.
    func detailArrived(_ task: MeshTask, now: Date = Date()) {
        details[task.id] = task
        named([task], now: now)
        if !table.ownsWrites { unsettledDetails.insert(task.id) }
    }

    /// Whether `id` is known to have a name (one memory lookup, no table read).
    func isKnownByName(_ id: String) -> Bool { names.known(id) == true }

    /// Whether the client knows `id` by its id alone (no detail fetched, no row or a row made
    /// from an event with no title): what `TaskNamer` is asked to fetch.
    public func needsName(_ id: String) -> Bool {
        if details[id] != nil { return false }
        if let named = names.known(id) { return !named }
        let named = table.task(id: id).map { !$0.isUnnamed } ?? false
        names.record(id, named: named)
        return !named
    }

    /// A task's output is on screen: it is kept (from now on its events are appended), and
    /// the least recently viewed beyond the LRU's capacity are dropped.
    public func keepOutput(of taskID: String) {
        if outputs[taskID] == nil { outputs[taskID] = TaskOutputBuffer() }
        for gone in outputRetention.touch(taskID) { outputs[gone] = nil }
    }

    /// Older output fetched for reading is let go for every task but `reading` (the task on
    /// screen, if any): each buffer is back to its own bound.
    public func endReading(except reading: String?) {
        for (id, buffer) in outputs where id != reading && (buffer.limit > buffer.capacity || buffer.olderLoading) {
            outputs[id]?.endReading()
        }
    }

    public func list(_ filter: Filter) -> ListState<MeshTask> { lists[filter] ?? ListState() }

    /// Files a list result or mark: items given go to the table (when the store writes it;
    /// otherwise the list save thread has written them), never into the state.
    func file(_ filter: Filter, _ change: (inout ListState<MeshTask>) -> Void) {
        var state = list(filter)
        let before = state.generation
        change(&state)
        if state.generation != before {
            // A whole list may have removed rows (a task deleted, its id reused later): what
            // was known named is read again once, at a list read's pace, not an event's.
            if state.bound == nil { names.reset() }
            names.learn(state.items)
            if table.ownsWrites { table.save(state.items, filter: filter, whole: state.bound == nil) }
            state.items = []
            generation &+= 1
        }
        lists[filter] = state
    }

    /// The list for `filter` as a window over the table (count now, rows when read).
    public func window(_ filter: Filter) -> TaskRowsWindow {
        _ = generation
        return TaskRowsWindow(table: table, filter: filter, overlay: overlay.statuses)
    }

    /// How many tasks the list holds, statuses known from events but not yet committed counted.
    public func count(_ filter: Filter) -> Int {
        _ = generation
        return max(0, table.count(filter) + overlay.adjustment(for: filter, in: table))
    }

    /// Every task of a list, in the pane's order (tests and short lists: at most `limit`).
    public func rows(_ filter: Filter, limit: Int = 10_000) -> [MeshTask] {
        let w = window(filter)
        return (0..<min(w.count, limit)).map(w.task(at:))
    }

    /// The tasks running now, from the table as status events keep it (a task that starts
    /// counts at once, one that ends leaves at once).
    public var runningCount: Int { count(Filter(status: .running)) }
    public var running: [MeshTask] { rows(Filter(status: .running)).filter { $0.status == .running } }

    /// One task: its row (what lists, events and its detail last said, statuses not yet
    /// committed on top) with its detail's plan; its detail alone when it arrived since the
    /// table last changed, or the table has no row.
    public func task(id: String) -> MeshTask? {
        _ = generation
        if unsettledDetails.contains(id), let detail = details[id] { return detail }
        guard var row = table.task(id: id) else { return details[id] }
        if let status = overlay.statuses[id] { row.status = status }
        if let plan = details[id]?.plan { row.plan = plan }
        return row
    }

    /// The newest `count` tasks we know of: the table's newest (one indexed query) and the
    /// details fetched one by one (bounded) the table has no row for, each task once.
    public func recent(_ count: Int) -> [MeshTask] {
        guard count > 0 else { return [] }
        let newest = window(Filter(limit: count))
        var byID: [String: MeshTask] = [:]
        for i in 0..<newest.count {
            let t = newest.task(at: i)
            byID[t.id] = t
        }
        for t in details.values where byID[t.id] == nil { byID[t.id] = task(id: t.id) ?? t }
        return Array(byID.values.sorted(by: Self.before).prefix(count))
    }

    /// The pane's order, as the table's indexes give it: newer first; equal times (or none) by id.
    nonisolated public static func before(_ a: MeshTask, _ b: MeshTask) -> Bool {
        let (ta, tb) = (a.updatedAt ?? .distantPast, b.updatedAt ?? .distantPast)
        return ta == tb ? a.id < b.id : ta > tb
    }

    func apply(events: [TaskEvent], now: Date = Date()) {
        guard let first = events.first?.taskID else { return }
        var statuses: [(id: String, status: TaskStatus, at: Date)] = []
        // A burst is usually one task's events: applied as they are, without regrouping.
        if events.allSatisfy({ $0.taskID == first }) {
            apply(task: first, events, now: now, statuses: &statuses)
        } else {
            var byTask: [String: [TaskEvent]] = [:]
            for e in events { byTask[e.taskID, default: []].append(e) }
            for (task, list) in byTask { apply(task: task, list, now: now, statuses: &statuses) }
        }
        guard !statuses.isEmpty else { return }
        if table.ownsWrites {
            table.setStatuses(statuses)
        } else {
            for (id, s, at) in statuses { overlay.note(id, s, at: at, now: now) }
        }
        generation &+= 1
    }

    private func apply(
        task: String, _ list: [TaskEvent], now: Date, statuses: inout [(id: String, status: TaskStatus, at: Date)]
    ) {
        // Kept tasks only; the rest is in the cache. Looked up first: even a change through
        // `?.` to a task not held counts as a change of `outputs` to whoever read it (the
        // output view on screen). A detail's status is kept too, for when it stands in for a
        // row the table lacks.
        if outputs[task] != nil { outputs[task]?.append(list) }
        // The last status, read in place: `last(where:)` copied each event of a burst to test
        // it, and matching the payload first copies its strings; the type is looked at first.
        var i = list.endIndex
        while i > list.startIndex {
            i -= 1
            guard list[i].type == .status, case .status(let s, _, _) = list[i].payload else { continue }
            if var t = details[task], t.status != s {
                t.status = s
                details[task] = t
            }
            statuses.append((task, s, list[i].ts ?? now))
            return
        }
    }
}
