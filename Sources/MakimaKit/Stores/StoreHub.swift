import Foundation
import Observation

/// All stores together, and the one function that changes them. Home is not a store of its
/// own data: it reads the others (`MeshSummary`), so nothing is held twice.
///
/// Each kind of list has one store, registered here by its kind's name when first used (a
/// `ListStore` the hub makes, or the store the kind names: `tasks`); what every list store
/// does together (`markAllStale`, `forgetServer`, `keepDetails`) goes through that registry.
/// The kinds' files add the typed reads (`hub.daemons`, `hub.contracts`…).
@MainActor
public final class StoreHub {
    public let tasks = TasksStore()
    public let connection = ConnectionStore()
    public let notifications = NotificationsStore()
    public let missing = MissingStore()
    /// The other profiles' meshes (the MESHES// card); not one server's data: kept on a switch.
    public let meshes = MeshesStore()
    /// What waits on the operator, learnt from the updates below (`NeedsYouStore`).
    public let needsYou = NeedsYouStore()
    /// Every kind's store, by kind name.
    private var kindStores: [String: (kind: any AnyListKind, store: any ListKindStore)] = [:]
    /// What the panes on the stack read (`keepDetails`): a store made later pins its share too.
    var pinnedLinks: [DeepLink] = []

    public init() {
        _ = ListKinds.tasks.store(in: self)
    }

    /// The keyed store of `kind` (made on first use). Two kinds with one name, or asking a kind
    /// that names a store of its own for a keyed one, are programming errors.
    public func listStore<Item>(_ kind: ListKind<Item>) -> ListStore<Item> {
        if let known = kindStores[kind.name] {
            guard let typed = known.store as? ListStore<Item> else {
                preconditionFailure("the kind \(kind.name) has another store (two kinds of one name?)")
            }
            return typed
        }
        let store = ListStore<Item>()
        return register(store, for: kind) as? ListStore<Item> ?? store
    }

    /// Registers a kind's own store under its name (once; later calls return the first).
    func register(_ store: any ListKindStore, for kind: any AnyListKind) -> any ListKindStore {
        if let known = kindStores[kind.name] { return known.store }
        kindStores[kind.name] = (kind, store)
        store.keepDetails(Set(pinnedLinks.compactMap(kind.detailID(of:))))
        return store
    }

    /// Every list store made so far, with its kind.
    var listStores: [(kind: any AnyListKind, store: any ListKindStore)] { Array(kindStores.values) }

    public func apply(_ update: SyncUpdate) {
        switch update {
        case .list(let query, let payload, let fetchedAt, let fromCache):
            applyList(query, payload, fetchedAt: fetchedAt, fromCache: fromCache)
            learnNeedsYou(query, payload, fetchedAt: fetchedAt)
        case .listFailed(let query, let message):
            mutateList(query) { (s: inout ListStateAny) in s.fail(message) }
        case .listLoading(let query):
            mutateList(query) { (s: inout ListStateAny) in s.setLoading() }
        case .listProgress(let query, let received):
            mutateList(query) { (s: inout ListStateAny) in if s.isLoading { s.received = received } }
        case .detail(let link, let payload):
            link.kind.list.keepDetail(payload, in: self)
            missing.links[link] = nil
            if let task = payload.items(as: MeshTask.self)?.first {
                needsYou.taskKnown(task, clock: connection.serverClock, now: Date())
            }
        case .detailNotFound(let link): missing.links[link] = true
        case .events(let events):
            tasks.apply(events: events)
            needsYou.events(events, clock: connection.serverClock, now: Date())
        case .taskRowsChanged: tasks.tableChanged()
        case .tasksNamed(let named):
            tasks.named(named)
            needsYou.tasksListed(named, clock: connection.serverClock, now: Date())
        case .olderOutput(let taskID, let events, let from):
            var older = TaskOutputBuffer(capacity: Int.max)
            older.append(events)
            tasks.keepOutput(of: taskID)
            tasks.outputs[taskID]?.prepend(older, from: from)
        case .outputCaughtUp: break
        case .connection(let link): connection.link = link
        case .notifications(let n): notifications.add(n)
        case .serverClock(let offset): connection.serverClock = offset
        // A 401 is the app's to act on (re-authentication, the cache kept), in its own words:
        // nothing of the server's text is kept or shown.
        case .unauthorized: break
        case .notice(let text): connection.lastNotice = text
        }
    }

    /// The tasks `updates` name (an event's task, a directive question's) that the stores know
    /// by id alone (`TasksStore.needsName`), for the engine to fetch. At most
    /// `namesCheckedPerBatch` ids are looked up per batch: a flood of unknown ids costs the UI
    /// thread a bounded number of reads (the engine bounds the fetches, `TaskNamer`).
    public func unnamedTasks(in updates: [SyncUpdate]) -> [String] {
        var seen: Set<String> = []
        var unknown: [String] = []
        func check(_ id: String?) {
            // A task already known by name is answered in memory, before any bookkeeping: the
            // stream's every event names one.
            guard let id, !tasks.isKnownByName(id) else { return }
            guard seen.count < Self.namesCheckedPerBatch, seen.insert(id).inserted else { return }
            if tasks.needsName(id) { unknown.append(id) }
        }
        // Newest first: past the bound, the tasks that spoke last (the rows on top) are the ones asked.
        for update in updates.reversed() {
            switch update {
            case .events(let events): for e in events.reversed() { check(e.taskID) }
            case .list(let q, let payload, _, _) where q.kind.name == ListKinds.directives.name:
                for d in payload.items(as: Directive.self) ?? [] { check(d.pendingQuestion?.taskID) }
            default: break
            }
        }
        return unknown.reversed()
    }

    public static let namesCheckedPerBatch = 64
    /// The newest failed tasks a task list's arrival reads from the table for `needsYou`.
    static let failedRowsRead = 100

    /// A list's rows that say what needs the operator: any task list, the pending directives,
    /// the whole daemons list.
    private func learnNeedsYou(_ query: ListQuery, _ payload: ListPayload, fetchedAt: Date) {
        let clock = connection.serverClock
        switch query.kind.name {
        case ListKinds.tasks.name:
            // A list's rows go to the task table (the payload may carry none): the newest failed
            // rows are read back once per list read, not per event (status events keep it current).
            let failed = tasks.table.rows(TasksStore.Filter(status: .failed), offset: 0, limit: Self.failedRowsRead)
            needsYou.tasksListed(failed + (payload.items(as: MeshTask.self) ?? []), clock: clock, now: Date())
        case ListKinds.directives.name:
            needsYou.questionsListed(directives.pendingQuestions, fetchedAt: fetchedAt, clock: clock)
        case ListKinds.daemons.name where query == .daemons:
            needsYou.daemonsListed(payload.items(as: Daemon.self) ?? [], clock: clock, now: Date())
        default: break
        }
    }

    private func applyList(_ query: ListQuery, _ payload: ListPayload, fetchedAt: Date, fromCache: Bool) {
        guard query.kind.apply(payload, to: self, query: query, fetchedAt: fetchedAt, fromCache: fromCache) else {
            connection.lastNotice = "ignored a result that did not match its query (\(query))"
            return
        }
    }

    /// Loading/failure marks for any list, whatever its item type.
    private func mutateList(_ query: ListQuery, _ change: (inout ListStateAny) -> Void) {
        query.kind.mark(self, query: query, change)
    }
}
