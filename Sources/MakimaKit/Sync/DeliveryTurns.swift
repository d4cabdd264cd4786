import Foundation

/// Keeps batches in the order they were sequenced while they are delivered outside every lock.
/// A batch takes a ticket in the same critical section that sequences it (`issue`, called with
/// the sequencer's lock held), then, with no lock held, waits for its turn, delivers, and
/// hands the turn on (`deliver`). A delivery may block (the outbox waits for its consumer when
/// full): the batches behind it wait for their turn on a condition, not on a lock, so the
/// sequencer, the counters and every reader stay free meanwhile.
///
/// Bounded: at most `maxWaiting` batches hold a ticket at once. A caller past it waits in
/// `admit`, before it sequences anything, for a turn to end. Each caller holds one ticket at a
/// time and the callers are a bounded set of threads (the socket's and the fetch pool's), so the
/// bound is a guard, not a queue that fills.
final class DeliveryTurns: @unchecked Sendable {
    // @unchecked: every field is guarded by `condition`.
    private let condition = NSCondition()
    /// The next ticket given out.
    private var issued: UInt64 = 0
    /// The ticket whose turn it is.
    private var turn: UInt64 = 0
    /// Callers admitted and not yet done (holding a ticket, or about to take one).
    private var admitted = 0
    let maxWaiting: Int

    init(maxWaiting: Int) { self.maxWaiting = max(1, maxWaiting) }

    /// Waits for room under the bound and holds a place; then `issue` or `withdraw`.
    func admit() {
        condition.lock()
        while admitted >= maxWaiting { condition.wait() }
        admitted += 1
        condition.unlock()
    }

    /// An admitted caller's ticket. Call it with the lock that orders the batches held.
    func issue() -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        issued += 1
        return issued - 1
    }

    /// An admitted caller with nothing to deliver gives its place back.
    func withdraw() {
        condition.lock()
        admitted -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for `ticket`'s turn, runs `body` with no lock held, then hands the turn on.
    func deliver(_ ticket: UInt64, _ body: () -> Void) {
        condition.lock()
        while turn != ticket { condition.wait() }
        condition.unlock()
        body()
        condition.lock()
        turn += 1
        admitted -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Tickets given out whose delivery has not ended (waiting or delivering).
    var outstanding: Int {
        condition.lock()
        defer { condition.unlock() }
        return Int(issued - turn)
    }
}
