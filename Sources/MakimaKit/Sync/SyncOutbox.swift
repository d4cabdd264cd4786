import Foundation

/// Carries `SyncUpdate`s from the engine's threads to their one consumer (the UI thread, or a
/// CLI command). Producers append; the consumer is woken once per empty→non-empty change,
/// however many updates pile up, and takes them all at once with consecutive task events
/// merged, so a burst of 100,000 events costs a handful of wake-ups, not 100,000.
///
/// Bounded: a producer posting task events while `maxPendingEvents` wait blocks until the
/// consumer takes them, so a server sending faster than the screen applies is slowed down
/// at the socket (the WebSocket thread stops reading) instead of growing memory.
public final class SyncOutbox: @unchecked Sendable {
    // @unchecked: `pending` is guarded by `condition`.
    private let condition = NSCondition()
    private var pending: [SyncUpdate] = []
    /// Task events posted since the last other update, appended in place (merging by
    /// rebuilding `.events` arrays would be quadratic in a burst).
    private var eventTail: [TaskEvent] = []
    private let wake: @Sendable () -> Void
    public let maxPendingEvents: Int

    /// `wake` runs on the producing thread; it should only nudge the consumer (e.g. write a
    /// byte to the UI's wake pipe). Never post task events from the consumer's own thread: it
    /// could wait on itself once `maxPendingEvents` are pending.
    public init(maxPendingEvents: Int = 20_000, wake: @escaping @Sendable () -> Void = {}) {
        self.maxPendingEvents = max(1, maxPendingEvents)
        self.wake = wake
    }

    public func post(_ update: SyncUpdate) {
        condition.lock()
        if case .events = update {
            // Wait for the consumer (it is woken below, or already was when this filled up).
            while eventTail.count + pendingEventCount >= maxPendingEvents && !closed {
                _ = condition.wait(until: Date().addingTimeInterval(0.25))
            }
        }
        guard !closed else { return condition.unlock() }
        let wasEmpty = pending.isEmpty && eventTail.isEmpty
        if case .events(let new) = update {
            // Into an empty tail the array itself is taken (no event copied one by one).
            if eventTail.isEmpty { eventTail = new } else { eventTail.append(contentsOf: new) }
        } else {
            flushTail()
            pending.append(update)
        }
        condition.signal()
        condition.unlock()
        if wasEmpty { wake() }
    }

    /// The consumer is gone (its engine stopped): what is posted from now on is dropped, and a
    /// producer waiting on the bound returns instead of waiting for a drain that never comes.
    /// What was posted before stays for `drain`.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private var closed = false

    /// True while something posted waits for `drain`.
    public var hasPending: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !pending.isEmpty || !eventTail.isEmpty
    }

    /// Everything posted so far, oldest first.
    public func drain() -> [SyncUpdate] {
        condition.lock()
        defer { condition.unlock() }
        return takeAll()
    }

    /// Blocks until something is posted or the deadline passes (for consumers without a loop of their own).
    public func wait(until deadline: Date) -> [SyncUpdate] {
        condition.lock()
        while pending.isEmpty && eventTail.isEmpty && condition.wait(until: deadline) {}
        defer { condition.unlock() }
        return takeAll()
    }

    /// Task events in `pending` (moved there from the tail when another update followed).
    private var pendingEventCount = 0

    private func flushTail() {
        guard !eventTail.isEmpty else { return }
        pending.append(.events(eventTail))
        pendingEventCount += eventTail.count
        eventTail = []
    }

    private func takeAll() -> [SyncUpdate] {
        flushTail()
        defer {
            pending = []
            pendingEventCount = 0
            condition.broadcast()  // producers waiting on the bound
        }
        return pending
    }
}
