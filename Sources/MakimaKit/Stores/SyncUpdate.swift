import Foundation

/// Everything that changes the stores, produced off the UI thread by the sync engine and
/// applied on it by `StoreHub.apply`.
public enum SyncUpdate: Sendable {
    case list(ListQuery, ListPayload, fetchedAt: Date, fromCache: Bool)
    case listFailed(ListQuery, message: String)
    case listLoading(ListQuery)
    case contract(Contract)
    case task(MeshTask)
    case listenSession(ListenSession)
    /// The server has no such object (a detail fetch answered 404).
    case detailNotFound(DeepLink)
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
