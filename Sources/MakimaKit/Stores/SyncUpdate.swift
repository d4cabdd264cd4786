import Foundation

/// What the list queries are: the cache keys collections by it, the refresh coordinator
/// de-duplicates in-flight requests by it, and the stores file results under it.
public enum ListQuery: Hashable, Sendable, CustomStringConvertible {
    case daemons
    case contracts(status: ContractStatus?)
    case tasks(status: TaskStatus?, contractID: String?)
    case directives(pendingOnly: Bool)
    case listenSessions(limit: Int?)

    public var description: String {
        switch self {
        case .daemons: return "daemons"
        case .contracts(let s): return "contracts?status=\(s?.rawValue ?? "")"
        case .tasks(let s, let c): return "tasks?status=\(s?.rawValue ?? "")&contract_id=\(c ?? "")"
        case .directives(let p): return "directives?pending=\(p)"
        case .listenSessions(let l): return "listen?limit=\(l.map(String.init) ?? "")"
        }
    }
}

/// A list result, typed by what it holds.
public enum ListPayload: Sendable {
    case daemons([Daemon])
    case contracts([Contract])
    case tasks([MeshTask])
    case directives([Directive])
    case listenSessions([ListenSession])
}

/// Everything that changes the stores, produced off the UI thread by the sync engine and
/// applied on it by `StoreHub.apply`.
public enum SyncUpdate: Sendable {
    case list(ListQuery, ListPayload, fetchedAt: Date, fromCache: Bool)
    case listFailed(ListQuery, message: String)
    case listLoading(ListQuery)
    case contract(Contract)
    case task(MeshTask)
    case listenSession(ListenSession)
    case events([TaskEvent])
    /// Older output fetched on demand when the viewer scrolls above the buffer.
    case olderOutput(taskID: String, events: [TaskEvent])
    /// A task's history has been fetched up to now (it streams live from here).
    case outputCaughtUp(taskID: String)
    case connection(ConnectionStatus)
    case notifications([MeshNotification])
    case unauthorized(message: String)
    case notice(String)
}
