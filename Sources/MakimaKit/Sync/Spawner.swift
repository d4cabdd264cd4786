import Foundation

/// How the sync engine starts list fetches: each on a short-lived thread of its own, because
/// each makes one blocking libcurl transfer and the cooperative pool must never block (one
/// per list query at most, so their number is the client's, not the server's). Work whose
/// count the server decides (hole fills, catch-ups) runs on a bounded `WorkerPool` instead.
/// Injected through `SyncEngine.Options.spawner`.
public struct Spawner: Sendable {
    private let start: @Sendable (@escaping @Sendable () -> Void) -> Void

    public init(_ start: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) { self.start = start }

    /// A detached thread per job.
    public static let threads = Spawner { work in Thread.detachNewThread(work) }

    public func run(_ work: @escaping @Sendable () -> Void) { start(work) }
}
