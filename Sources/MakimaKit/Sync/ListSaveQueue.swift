import Dispatch
import Synchronization

/// One thread that saves fetched lists to the cache, in the order they were fetched, so the
/// fetch thread hands its list to the outbox at once. Bounded: past `maxPending` saves waiting
/// (a cache far slower than the fetches) a save is dropped; the list's next fetch saves it again.
final class ListSaveQueue: Sendable {
    static let maxPending = 32
    private let queue = DispatchQueue(label: "makima-cache-lists")
    private let pending = Atomic<Int>(0)

    func save(_ work: @escaping @Sendable () -> Void) {
        guard pending.add(1, ordering: .relaxed).newValue <= Self.maxPending else {
            pending.subtract(1, ordering: .relaxed)
            return
        }
        queue.async {
            work()
            self.pending.subtract(1, ordering: .relaxed)
        }
    }

    /// Returns once every save queued before it is done.
    func drain() { queue.sync {} }
}
