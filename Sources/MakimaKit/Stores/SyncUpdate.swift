import Foundation

/// Everything that changes the stores, produced off the UI thread by the sync engine and
/// applied on it by `StoreHub.apply`.
public enum SyncUpdate: Sendable {
    case list(ListQuery, ListPayload, fetchedAt: Date, fromCache: Bool)
    case listFailed(ListQuery, message: String)
    case listLoading(ListQuery)
    /// A read of the list is under way and has received this many items so far (throttled,
    /// only for reads of more than one page; see `ListSink`).
    case listProgress(ListQuery, received: Int)
    /// An item a deep link names, fetched alone (`SyncEngine.loadDetail`): kept in its kind's
    /// store (the list kind of the link's kind).
    case detail(DeepLink, ListPayload)
    /// The server has no such object (a detail fetch answered 404).
    case detailNotFound(DeepLink)
    case events([TaskEvent])
    /// The cache's task table changed (a task list saved, statuses committed): task windows
    /// are read again.
    case taskRowsChanged
    /// Tasks an event named before any list held them, fetched one by one (`TaskNamer`); with
    /// a cache they are in its task table already.
    case tasksNamed([MeshTask])
    /// Older output read on demand (the viewer scrolled above the buffer, or the cache's
    /// newest lines for a view opening). `from`, when set, says the events are every event of
    /// the task from that seq up to the buffer's first (1: the output's start); nil claims
    /// nothing (the cache's lines, or a fetch that failed before any page).
    case olderOutput(taskID: String, events: [TaskEvent], from: Int? = nil)
    /// A task's history has been fetched up to now (it streams live from here).
    case outputCaughtUp(taskID: String)
    case connection(ConnectionStatus)
    case notifications([MeshNotification])
    /// The server's clock against ours moved (`ServerClock`): times shown are read again.
    case serverClock(ClockOffset)
    case unauthorized(message: String)
    case notice(String)
}
