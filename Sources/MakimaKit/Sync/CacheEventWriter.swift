import Foundation

/// The cache's writer thread (`makima-cache`): applied events are appended to the cache in
/// batches, on a thread of its own, so a burst never waits on the disk.
public final class CacheEventWriter: Sendable {
    private let writer: BatchWriter<TaskEvent>

    /// `written` is called on the writer thread after each batch: whether it held a status
    /// (the task table's rows changed), and the error if the append failed.
    public init(
        into store: CacheStore, serverClock: @escaping @Sendable () -> ClockOffset = { .zero },
        written: @escaping @Sendable (_ statuses: Bool, _ error: CacheError?) -> Void
    ) {
        writer = BatchWriter<TaskEvent>(name: "makima-cache", maxBatch: 20_000, maxQueued: 20_000, linger: 0.1) {
            batch in
            do throws(CacheError) {
                try store.appendEvents(batch, serverClock: serverClock())
                written(batch.contains(where: { $0.type == .status }), nil)
            } catch {
                written(false, error)
            }
        }
    }

    public func enqueue(_ events: [TaskEvent]) { writer.enqueue(events) }

    /// Blocks until the cache holds every event enqueued so far.
    public func flush() { writer.flush() }

    /// Writes what is queued, then ends the thread.
    public func stop() { writer.stop() }
}
