import Foundation
import Observation

/// All stores together, and the one function that changes them. Home is not a store of its
/// own data: it reads the others (`HomeSummary`), so nothing is held twice.
@MainActor
public final class StoreHub {
    public let daemons = DaemonsStore()
    public let contracts = ContractsStore()
    public let tasks = TasksStore()
    public let directives = DirectivesStore()
    public let listen = ListenStore()
    public let connection = ConnectionStore()
    public let notifications = NotificationsStore()

    public init() {}

    public func apply(_ update: SyncUpdate) {
        switch update {
        case .list(let query, let payload, let fetchedAt, let fromCache):
            applyList(query, payload, fetchedAt: fetchedAt, fromCache: fromCache)
        case .listFailed(let query, let message):
            mutateList(query) { (s: inout ListStateAny) in s.fail(message) }
        case .listLoading(let query):
            mutateList(query) { (s: inout ListStateAny) in s.setLoading() }
        case .contract(let c): contracts.details[c.id] = c
        case .task(let t): tasks.details[t.id] = t
        case .listenSession(let s): listen.details[s.id] = s
        case .events(let events): tasks.apply(events: events)
        case .olderOutput(let taskID, let events):
            var older = TaskOutputBuffer(capacity: Int.max)
            older.append(events)
            tasks.keepOutput(of: taskID)
            tasks.outputs[taskID]?.prepend(older)
        case .outputCaughtUp: break
        case .connection(let link): connection.link = link
        case .notifications(let n): notifications.add(n)
        case .unauthorized(let message): connection.unauthorizedMessage = message
        case .notice(let text): connection.lastNotice = text
        }
    }

    private func applyList(_ query: ListQuery, _ payload: ListPayload, fetchedAt: Date, fromCache: Bool) {
        func put<T>(_ state: inout ListState<T>, _ items: [T]) {
            // A cache snapshot never overwrites data the server already gave this session.
            if fromCache && state.hasLoaded && !state.isStale { return }
            state.succeed(items, at: fetchedAt)
            state.isStale = fromCache
        }
        switch (query, payload) {
        case (.daemons, .daemons(let d)): put(&daemons.list, d)
        case (.contracts(let status), .contracts(let c)):
            var l = contracts.list(status)
            put(&l, c)
            contracts.lists[status] = l
        case (.tasks(let status, let contractID), .tasks(let t)):
            let f = TasksStore.Filter(status: status, contractID: contractID)
            var l = tasks.list(f)
            put(&l, t)
            tasks.lists[f] = l
        case (.directives(let pendingOnly), .directives(let d)):
            if pendingOnly { put(&directives.pending, d) } else { put(&directives.list, d) }
        case (.listenSessions(let limit), .listenSessions(let s)):
            if limit == 1 { put(&listen.latest, s) } else { put(&listen.list, s) }
        default:
            connection.lastNotice = "ignored a result that did not match its query (\(query))"
        }
    }

    /// Loading/failure marks for any list, whatever its item type.
    private func mutateList(_ query: ListQuery, _ change: (inout ListStateAny) -> Void) {
        switch query {
        case .daemons: ListStateAny.mutate(&daemons.list, change)
        case .contracts(let s):
            var l = contracts.list(s)
            ListStateAny.mutate(&l, change)
            contracts.lists[s] = l
        case .tasks(let s, let c):
            let f = TasksStore.Filter(status: s, contractID: c)
            var l = tasks.list(f)
            ListStateAny.mutate(&l, change)
            tasks.lists[f] = l
        case .directives(let p):
            if p {
                ListStateAny.mutate(&directives.pending, change)
            } else {
                ListStateAny.mutate(&directives.list, change)
            }
        case .listenSessions(let limit):
            if limit == 1 {
                ListStateAny.mutate(&listen.latest, change)
            } else {
                ListStateAny.mutate(&listen.list, change)
            }
        }
    }
}

/// The item-independent part of a ListState, so failure/loading marks need no per-type code.
struct ListStateAny {
    var isLoading: Bool
    var lastError: String?
    mutating func fail(_ message: String) {
        isLoading = false
        lastError = message
    }
    mutating func setLoading() { isLoading = true }

    static func mutate<T>(_ state: inout ListState<T>, _ change: (inout ListStateAny) -> Void) {
        var any = ListStateAny(isLoading: state.isLoading, lastError: state.lastError)
        change(&any)
        state.isLoading = any.isLoading
        state.lastError = any.lastError
    }
}

/// The Home pane's numbers, read from the other stores.
@MainActor
public struct HomeSummary {
    public var daemonsOnline: Int
    public var daemonsOffline: Int
    public var runningTasks: [MeshTask]
    public var activeContracts: [Contract]
    public var pendingQuestions: [Directive]
    public var latestListen: ListenSession?
    public var recentTasks: [MeshTask]

    public init(_ hub: StoreHub) {
        daemonsOnline = hub.daemons.onlineCount
        daemonsOffline = hub.daemons.offlineCount
        runningTasks = hub.tasks.list(.init(status: .running)).items
        activeContracts = hub.contracts.active
        let dir = hub.directives
        pendingQuestions = (dir.pending.hasLoaded ? dir.pending.items : dir.list.items).filter(\.hasPendingQuestion)
        latestListen = hub.listen.latestSession
        recentTasks = hub.tasks.recent(3)
    }
}
