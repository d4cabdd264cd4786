import Foundation
import Observation

/// All stores together, and the one function that changes them. Home is not a store of its
/// own data: it reads the others (`MeshSummary`), so nothing is held twice.
@MainActor
public final class StoreHub {
    public let daemons = DaemonsStore()
    public let contracts = ContractsStore()
    public let tasks = TasksStore()
    public let directives = DirectivesStore()
    public let listen = ListenStore()
    public let connection = ConnectionStore()
    public let notifications = NotificationsStore()
    public let missing = MissingStore()

    public init() {}

    public func apply(_ update: SyncUpdate) {
        switch update {
        case .list(let query, let payload, let fetchedAt, let fromCache):
            applyList(query, payload, fetchedAt: fetchedAt, fromCache: fromCache)
        case .listFailed(let query, let message):
            mutateList(query) { (s: inout ListStateAny) in s.fail(message) }
        case .listLoading(let query):
            mutateList(query) { (s: inout ListStateAny) in s.setLoading() }
        case .listProgress(let query, let received):
            mutateList(query) { (s: inout ListStateAny) in if s.isLoading { s.received = received } }
        case .contract(let c):
            contracts.details[c.id] = c
            missing.links[.contract(c.id)] = nil
        case .task(let t):
            tasks.details[t.id] = t
            missing.links[.task(t.id)] = nil
        case .listenSession(let s):
            listen.details[s.id] = s
            missing.links[.listen(s.id)] = nil
        case .detailNotFound(let link): missing.links[link] = true
        case .events(let events): tasks.apply(events: events)
        case .olderOutput(let taskID, let events, let from):
            var older = TaskOutputBuffer(capacity: Int.max)
            older.append(events)
            tasks.keepOutput(of: taskID)
            tasks.outputs[taskID]?.prepend(older, from: from)
        case .outputCaughtUp: break
        case .connection(let link): connection.link = link
        case .notifications(let n): notifications.add(n)
        // A 401 is the app's to act on (re-authentication, the cache kept), in its own words:
        // nothing of the server's text is kept or shown.
        case .unauthorized: break
        case .notice(let text): connection.lastNotice = text
        }
    }

    private func applyList(_ query: ListQuery, _ payload: ListPayload, fetchedAt: Date, fromCache: Bool) {
        guard query.resource.apply(payload, to: self, query: query, fetchedAt: fetchedAt, fromCache: fromCache) else {
            connection.lastNotice = "ignored a result that did not match its query (\(query))"
            return
        }
    }

    /// Loading/failure marks for any list, whatever its item type.
    private func mutateList(_ query: ListQuery, _ change: (inout ListStateAny) -> Void) {
        query.resource.mark(self, query: query, change)
    }
}
