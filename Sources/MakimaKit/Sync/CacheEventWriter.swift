import Foundation

/// The cache's writer thread (`makima-cache`): applied events are appended to the cache in
/// batches, on a thread of its own, so a burst never waits on the disk. A batch gathers for up
/// to a second: at an agent's pace each commit rewrites the same hot pages (each task's end of
/// the event table and its indexes, the WAL's pages for them), so ten commits a second wrote
/// nearly four times the bytes of one. A `kill -9` loses at most that second, which the resume
/// fetches again; a burst fills a batch (20,000) long before it.
public final class CacheEventWriter: Sendable {
    private let writer: BatchWriter<TaskEvent>

    /// `written` is called on the writer thread after each batch: whether it held a status
    /// (the task table's rows changed), and the error if the append failed.
    public init(
        into store: CacheStore, serverClock: @escaping @Sendable () -> ClockOffset = { .zero },
        written: @escaping @Sendable (_ statuses: Bool, _ error: CacheError?) -> Void
    ) {
        writer = BatchWriter<TaskEvent>(name: "makima-cache", maxBatch: 20_000, maxQueued: 20_000, linger: 1.0) {
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
