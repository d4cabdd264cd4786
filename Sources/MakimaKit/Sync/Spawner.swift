import Foundation

/// The one way the sync engine starts background work (list fetches, hole fills, detail and
/// older-output fetches): each job on a short-lived thread of its own, because each makes one
/// blocking libcurl transfer and the cooperative pool must never block. Injected through
/// `SyncEngine.Options.spawner`, so every part of the engine starts work the same way.
public struct Spawner: Sendable {
    private let start: @Sendable (@escaping @Sendable () -> Void) -> Void

    public init(_ start: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) { self.start = start }

    /// A detached thread per job.
    public static let threads = Spawner { work in Thread.detachNewThread(work) }

    public func run(_ work: @escaping @Sendable () -> Void) { start(work) }
}
