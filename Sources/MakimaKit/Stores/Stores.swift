import Foundation
import Observation

// The stores hold what the screen shows. They live on the UI thread (the main thread) only:
// network threads never touch them, they post `SyncUpdate`s that `StoreHub.apply` runs there.

@MainActor @Observable
public final class DaemonsStore {
    public var list = ListState<Daemon>()
    public init() {}
    public var onlineCount: Int { list.items.filter { $0.status.isOnline }.count }
    public var offlineCount: Int { list.items.count - onlineCount }
}

@MainActor @Observable
public final class ContractsStore {
    public var lists: [ContractStatus?: ListState<Contract>] = [:]
    /// Contracts fetched one by one (detail panes), bounded (`BoundedMap`).
    public var details = BoundedMap<String, Contract>()
    public init() {}
    public func list(_ status: ContractStatus?) -> ListState<Contract> { lists[status] ?? ListState() }
    /// Active contracts from the best list we have: the `active` filter, else the unfiltered
    /// one; either way only those whose status says active (a server may ignore the filter).
    public var active: [Contract] {
        if let l = lists[.some(.active)], l.hasLoaded || !l.items.isEmpty {
            return l.items.filter { $0.status == .active }
        }
        return list(nil).items.filter { $0.status == .active }
    }
}

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
    public var lists: [Filter: ListState<MeshTask>] = [:]
    /// Tasks fetched one by one (the output view, toasts' titles), bounded (`BoundedMap`).
    public var details = BoundedMap<String, MeshTask>()
    /// Output lines of the tasks in `outputRetention` only (see `TaskOutputLRU`).
    public var outputs: [String: TaskOutputBuffer] = [:]
    public private(set) var outputRetention = TaskOutputLRU()
    public init() {}

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

    /// Each shown list in the Tasks pane's order, kept in step with status events (a list that
    /// arrives whole is sorted once, when first asked for). Derived data: not observed, since
    /// reading `lists` is what marks a pane for a rebuild.
    @ObservationIgnored private var orders: [Filter: TaskOrder] = [:]

    /// The list for `filter` in the Tasks pane's order (`TaskOrder`): a full sort only when its
    /// items were replaced since the last call.
    public func order(_ filter: Filter) -> TaskOrder {
        let state = list(filter)
        if let o = orders[filter], o.generation == state.generation { return o }
        let o = TaskOrder(state.items, generation: state.generation)
        orders = orders.filter { lists[$0.key] != nil }  // bounded by the lists held
        orders[filter] = o
        return o
    }

    /// The tasks running now: the `running` list, as status events keep it (a task that starts
    /// is added at once, one that ends leaves at once), counting only items whose status says
    /// running (a server may ignore the filter).
    public var running: [MeshTask] { list(.init(status: .running)).items.filter { $0.status == .running } }

    /// The newest `count` tasks we know of, across every list. One pass keeping the newest
    /// `count` (a large mesh's lists hold tens of thousands of tasks; Home asks on every change).
    public func recent(_ count: Int) -> [MeshTask] {
        guard count > 0 else { return [] }
        var seen = Set<String>()
        var top: [MeshTask] = []  // newest first, at most `count`
        func consider(_ t: MeshTask) {
            guard seen.insert(t.id).inserted else { return }
            let at = t.updatedAt ?? .distantPast
            if top.count == count, at <= (top[count - 1].updatedAt ?? .distantPast) { return }
            let i = top.firstIndex { at > ($0.updatedAt ?? .distantPast) } ?? top.count
            top.insert(t, at: i)
            if top.count > count { top.removeLast() }
        }
        // Details first: they are the freshest copy of a task.
        for t in details.values.sorted(by: { $0.id < $1.id }) { consider(t) }
        for (_, l) in lists.sorted(by: { "\($0.key)" < "\($1.key)" }) { for t in l.items { consider(t) } }
        return top
    }

    func apply(events: [TaskEvent]) {
        guard let first = events.first?.taskID else { return }
        // A burst is usually one task's events: applied as they are, without regrouping.
        if events.allSatisfy({ $0.taskID == first }) { return apply(task: first, events) }
        var byTask: [String: [TaskEvent]] = [:]
        for e in events { byTask[e.taskID, default: []].append(e) }
        for (task, list) in byTask { apply(task: task, list) }
    }

    private func apply(task: String, _ list: [TaskEvent]) {
        // Kept tasks only; the rest is in the cache. Looked up first: even a change through
        // `?.` to a task not held counts as a change of `outputs` to whoever read it (the
        // output view on screen).
        if outputs[task] != nil { outputs[task]?.append(list) }
        guard let last = list.last(where: { if case .status = $0.payload { return true } else { return false } }),
            case .status(let s, _, _) = last.payload
        else { return }
        if var t = details[task], t.status != s {
            t.status = s
            details[task] = t
        }
        updateStatus(task, s, at: last.ts)
    }

    /// Where the task with this id is in `items`. Read through a buffer pointer: iterating the
    /// array copies each task (a retain per field), which on a 100,000-task list costs more
    /// than the rest of a status event.
    private static func position(of id: String, in items: [MeshTask]) -> Int? {
        items.withUnsafeBufferPointer { buffer in buffer.indices.first { buffer[$0].id == id } }
    }

    /// Status events move a task between filtered lists without waiting for the next poll: it
    /// leaves the lists whose status filter it no longer matches and joins (at the top) the
    /// loaded lists it now matches.
    private func updateStatus(_ id: String, _ status: TaskStatus, at: Date?) {
        var known =
            details[id]
            ?? lists.values.lazy.compactMap { l in Self.position(of: id, in: l.items).map { l.items[$0] } }.first
        known?.status = status
        if let at { known?.updatedAt = at }
        let task = known ?? MeshTask(id: id, status: status, updatedAt: at)
        // Each list is changed in place (`lists[filter]?…`): a copy of a 100,000-task list
        // per event would cost more than everything else an event does.
        for filter in Array(lists.keys) {
            let matches =
                (filter.status == nil || filter.status == status)
                && (filter.contractID == nil || filter.contractID == task.contractID)
            guard let generation = lists[filter]?.generation, let hasLoaded = lists[filter]?.hasLoaded else { continue }
            var changes: [(old: MeshTask?, new: MeshTask?)] = []
            if let i = lists[filter].flatMap({ Self.position(of: id, in: $0.items) }) {
                changes.append((lists[filter]?.items[i], matches ? task : nil))
                if matches { lists[filter]?.items[i] = task } else { lists[filter]?.items.remove(at: i) }
            } else if matches && hasLoaded {
                lists[filter]?.items.insert(task, at: 0)
                changes.append((nil, task))
                if let limit = filter.limit, let count = lists[filter]?.items.count, count > limit {
                    for gone in lists[filter]?.items[limit...] ?? [] { changes.append((gone, nil)) }
                    lists[filter]?.items.removeLast(count - limit)
                }
            } else {
                continue
            }
            // The order follows the same changes (binary searches) instead of a new sort.
            if orders[filter]?.generation == generation, let now = lists[filter]?.generation {
                for change in changes { orders[filter]?.replace(change.old, with: change.new) }
                orders[filter]?.generation = now
            }
        }
    }
}

@MainActor @Observable
public final class DirectivesStore {
    public var list = ListState<Directive>()
    public var pending = ListState<Directive>()
    public init() {}
    /// Directives waiting on a supervisor question: the `pending` list once loaded, else the full one.
    public var pendingQuestions: [Directive] {
        (pending.hasLoaded ? pending.items : list.items).filter(\.hasPendingQuestion)
    }
    public var pendingQuestionCount: Int { pendingQuestions.count }
}

@MainActor @Observable
public final class ListenStore {
    public var list = ListState<ListenSession>()
    public var latest = ListState<ListenSession>()
    /// Sessions fetched one by one with their transcript (the transcript pane), bounded (`BoundedMap`).
    public var details = BoundedMap<String, ListenSession>()
    public init() {}
    /// The most recently started session, from the `limit=1` list once loaded, else the full one.
    public var latestSession: ListenSession? {
        (latest.hasLoaded || list.items.isEmpty ? latest.items : list.items)
            .max { ($0.startedAt ?? .distantPast) < ($1.startedAt ?? .distantPast) }
    }
}

@MainActor @Observable
public final class ConnectionStore {
    /// Whether the dashboard has a key the server takes. With one, what the connection says is
    /// `link`; without, this says why not (Home's Network row reads both).
    public enum Access: Sendable, Equatable {
        case signedIn
        /// No server configured yet.
        case notConfigured
        /// The operator signed out (the key and profile were removed).
        case signedOut
        /// The server refused the key (401): nothing is fetched until a key is taken again.
        case keyRefused
    }

    public var access = Access.signedIn
    public var link: ConnectionStatus = .idle
    public var lastNotice: String?
    /// The stream's counters and how many connections the engine opened (Settings' figures),
    /// copied from the engine after each batch when they changed.
    public var counters = StreamCounters()
    public var connectionsOpened = 0
    public init() {}
}

@MainActor @Observable
public final class NotificationsStore {
    public private(set) var items: [MeshNotification] = []
    /// Notifications not yet shown as a toast.
    public private(set) var pendingToasts: [MeshNotification] = []
    public let capacity = 200
    public init() {}

    func add(_ new: [MeshNotification]) {
        let known = Set(items.map(\.id))
        let fresh = new.filter { !known.contains($0.id) }
        items.append(contentsOf: fresh)
        if items.count > capacity { items.removeFirst(items.count - capacity) }
        pendingToasts.append(contentsOf: fresh)
    }

    public func takeToasts() -> [MeshNotification] {
        defer { pendingToasts.removeAll() }
        return pendingToasts
    }
}

/// Objects the server said it does not have (a detail fetch answered 404), so a detail pane
/// can say "not found" instead of waiting forever. Bounded like the details (`BoundedMap`):
/// a server answering 404 to every toast's title lookup cannot grow it without end.
@MainActor @Observable
public final class MissingStore {
    public var links = BoundedMap<DeepLink, Bool>()
    public init() {}
}
