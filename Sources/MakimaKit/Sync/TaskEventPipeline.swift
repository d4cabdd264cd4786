import Foundation
import Synchronization

/// Where task events go once they are in order: every applied event exactly once, in `seq`
/// order per task. Frames arrive on the WebSocket thread; REST pages (hole fills and
/// catch-ups) are fetched on one bounded `WorkerPool`. The sequencer is shared behind one
/// lock; a batch takes its turn to be delivered under it and is delivered after it, with no
/// lock held (`DeliveryTurns`), so batches leave in the order they were applied while one
/// waits for a full outbox.
///
/// Every page request is a step of a retry loop that must make progress (`RetryLoop`): a
/// step that fails or moves nothing is retried after a growing delay (at least the server's
/// `Retry-After`), and after `Limits.attempts` such steps in a row the loop gives up, counts
/// it and says so through `onProblem`.
public final class TaskEventPipeline: Sendable {
    public typealias FetchPage = @Sendable (_ taskID: String, _ afterSeq: Int, _ limit: Int) throws -> TaskOutputPage

    public struct Limits: Sendable {
        /// Threads fetching pages, all tasks together.
        public var workers = 4
        /// Fetch jobs waiting (one per task at most); past it a gap waits for the next event.
        public var maxQueuedFetches = 4_096
        /// Failed or fruitless page requests in a row before a fill or catch-up gives up.
        public var attempts = 5
        public var backoffInitial: TimeInterval = 0.5
        public var backoffCap: TimeInterval = 30
        /// The most of a server's `Retry-After` honoured (a larger one is cut to this).
        public var retryAfterCap: TimeInterval = 300
        /// How long held events wait for a replay's `resync.done` before gaps are filled anyway.
        public var replayTimeout: TimeInterval = 30
        /// How long events may stay held; then they are let go and refetched over REST.
        public var heldTimeout: TimeInterval = 60
        public var maxHeldPerTask = 20_000
        public var maxHeldTotal = 50_000
        public var maxHeldBytes = 32 << 20
        /// Batches sequenced and waiting for their turn to be delivered (`DeliveryTurns`).
        public var maxWaitingDeliveries = 64
        public init() {}

        /// The fill and catch-up loops' retries: `attempts`, `backoffInitial` doubling up to
        /// `backoffCap`, a `Retry-After` honoured up to `retryAfterCap`.
        public var retry: RetryLoop {
            RetryLoop(attempts: attempts, initial: backoffInitial, cap: backoffCap, retryAfterCap: retryAfterCap)
        }
    }

    /// Why a catch-up ended without reaching the task's end.
    public enum FetchProblem: Error, CustomStringConvertible {
        case noProgress(attempts: Int)
        public var description: String {
            switch self {
            case .noProgress(let n):
                "the server's output pages moved nothing after \(n) requests (is `after_seq` ignored?); gave up"
            }
        }
    }

    struct State {
        var sequencer: TaskEventSequencer
        var policy: NotificationPolicy
        var counters = StreamCounters()
        /// Tasks whose hole fill is queued or running.
        var filling = Set<String>()
        /// Failed or fruitless fill steps in a row, per task; kept across fills so a task
        /// whose server keeps failing is retried later and later, not at the event rate.
        var fillFailures: [String: Int] = [:]
        var catchUpWaiters: [String: [@Sendable (Error?) -> Void]] = [:]
        var replaying = false
        var replayStartedAt = Date.distantPast
        var heldSince: [String: Date] = [:]
        var sweepQueued = false
    }

    let state: Mutex<State>
    private let turns: DeliveryTurns
    let pool: WorkerPool
    let fetchPage: FetchPage
    private let onApplied: @Sendable ([TaskEvent]) -> Void
    private let onNotifications: @Sendable ([MeshNotification]) -> Void
    let onProblem: @Sendable (String) -> Void
    let retryAfter: @Sendable (Error) -> TimeInterval?
    let now: @Sendable () -> Date
    private let serverClock: @Sendable () -> ClockOffset
    public let pageSize: Int
    public let limits: Limits
    /// `limits.retry`, made once.
    let retry: RetryLoop
    /// When set, events of other tasks are ignored (`logs --follow` follows one task).
    private let onlyTasks: Set<String>?

    /// `lastSeen` comes from the cache: what an earlier run already holds is never fetched again.
    /// `retryAfter` reads a server's requested wait out of a fetch error (`APIError.retryAfter`).
    /// `serverClock` is the server's offset now (notifications' times are read on our clock).
    public init(
        lastSeen: [String: Int], pageSize: Int = 500, onlyTasks: Set<String>? = nil,
        limits: Limits = Limits(),
        fetchPage: @escaping FetchPage,
        onApplied: @escaping @Sendable ([TaskEvent]) -> Void,
        onNotifications: @escaping @Sendable ([MeshNotification]) -> Void = { _ in },
        onProblem: @escaping @Sendable (String) -> Void = { _ in },
        retryAfter: @escaping @Sendable (Error) -> TimeInterval? = { ($0 as? APIError)?.retryAfter },
        now: @escaping @Sendable () -> Date = { Date() },
        serverClock: @escaping @Sendable () -> ClockOffset = { .zero }
    ) {
        state = Mutex(
            State(
                sequencer: TaskEventSequencer(
                    lastApplied: lastSeen, maxHeldPerTask: limits.maxHeldPerTask, maxHeldTotal: limits.maxHeldTotal,
                    maxHeldBytes: limits.maxHeldBytes),
                policy: NotificationPolicy()))
        self.pageSize = max(1, pageSize)
        self.limits = limits
        retry = limits.retry
        turns = DeliveryTurns(maxWaiting: limits.maxWaitingDeliveries)
        self.onlyTasks = onlyTasks
        self.fetchPage = fetchPage
        self.onApplied = onApplied
        self.onNotifications = onNotifications
        self.onProblem = onProblem
        self.retryAfter = retryAfter
        self.now = now
        self.serverClock = serverClock
        pool = WorkerPool(
            name: "makima-fill", maxWorkers: limits.workers, maxQueued: limits.maxQueuedFetches, now: now)
    }

    public var counters: StreamCounters { state.withLock { $0.counters } }
    public var lastSeen: [String: Int] { state.withLock { $0.sequencer.lastApplied } }
    public var hasGaps: Bool { state.withLock { !$0.sequencer.tasksWithGaps.isEmpty || !$0.filling.isEmpty } }
    /// Events held behind gaps right now, all tasks together.
    public var heldCount: Int { state.withLock { $0.sequencer.heldCount } }
    /// Fetches (and sweeps) queued or running, by their pool key: one not here happens only
    /// after the next frame or request.
    public var pendingFetches: Set<String> { pool.pendingKeys }
    /// Fetches queued and waiting out a delay (a backoff, a `Retry-After`), by their pool key
    /// (`fill <task>`, `catch-up <task>`, `sweep`).
    public var waitingFetches: Set<String> { pool.waitingKeys }
    /// The `now` given at init has moved on: delayed work that is now due runs.
    public func clockMoved() { pool.wake() }

    /// Threads fetching pages now, and the most there ever were.
    public var fetchThreads: (now: Int, peak: Int) { (pool.workerCount, pool.currentStats.peakWorkers) }

    /// Drops queued fetches and waits (up to `timeout`) for running ones to end.
    public func stop(timeout: TimeInterval = 2) { pool.stop(timeout: timeout) }

    /// The first message of every (re)connect. Replay follows until `resync.done`; gaps seen
    /// meanwhile wait for it, since the replay usually fills them, but no longer than
    /// `Limits.replayTimeout`.
    public func resyncRequest() -> String {
        let seen = state.withLock { s -> [String: Int] in
            s.replaying = true
            s.replayStartedAt = now()
            s.counters.resyncs += 1
            return s.sequencer.lastApplied
        }
        scheduleSweep()
        return StreamMessage.resyncRequest(lastSeen: seen)
    }

    /// Fetches a task's history after what is held, to its end (a task opened on screen that
    /// was not streaming since start-up), on the fetch pool ahead of hole fills.
    /// `done` runs once: when the task is up to date, or with the error that stopped it.
    public func catchUp(taskID: String, done: @escaping @Sendable (Error?) -> Void = { _ in }) {
        let first = state.withLock { s -> Bool in
            s.catchUpWaiters[taskID, default: []].append(done)
            return s.catchUpWaiters[taskID]?.count == 1
        }
        if first { submitCatchUp(taskID, failures: 0, delay: 0) }
    }

    /// A text frame from the WebSocket.
    public func receive(frame: String) { receive(frames: [frame]) }

    /// The text frames of one socket read, in order: decoded outside the locks, then applied
    /// as one batch (one lock round, one delivery to the stores and the cache) between control
    /// messages, which keep their place in the order.
    public func receive(frames: [String]) {
        guard !frames.isEmpty else { return }
        var malformed = 0
        var batch: [TaskEvent] = []
        batch.reserveCapacity(frames.count)
        var controls: [(before: Int, message: StreamMessage)] = []
        var lastTaskID: String?
        for frame in frames {
            do {
                switch try StreamMessage.decode(frame, reusingTaskID: &lastTaskID) {
                case .event(let e):
                    if let only = onlyTasks, !only.contains(e.taskID) { continue }
                    batch.append(e)
                case let control: controls.append((batch.count, control))
                }
            } catch {
                malformed += 1
            }
        }
        state.withLock {
            $0.counters.framesReceived += frames.count
            $0.counters.malformedSkipped += malformed
        }
        guard !controls.isEmpty else { return ingest(&batch, live: true) }
        var done = 0
        for (before, control) in controls {
            if before > done {
                var part = Array(batch[done..<before])
                ingest(&part, live: true)
            }
            done = before
            handle(control)
        }
        if batch.count > done {
            var rest = Array(batch[done...])
            ingest(&rest, live: true)
        }
    }

    private func handle(_ control: StreamMessage) {
        switch control {
        case .event(let e):
            var one = [e]
            ingest(&one, live: true)
        case .resyncDone:
            let gaps = state.withLock { s -> [String] in
                s.replaying = false
                return s.sequencer.tasksWithGaps
            }
            for t in gaps { startFill(t) }
        case .unknownControl:
            state.withLock { $0.counters.unknownTypes += 1 }
        }
    }

    /// The connection dropped: a replay in progress will not finish.
    public func connectionLost() { state.withLock { $0.replaying = false } }

    /// Sequences a batch and delivers what it applied. The batch is the caller's, stamped in
    /// place (no copy of the array) and, when it is all in order, delivered as it is.
    private func ingest(_ events: inout [TaskEvent], live: Bool) {
        var gaps = Set<String>()
        var held = false
        apply { s in
            // Only what arrives live notifies and is stamped with its arrival (the activity
            // history counts it then, whatever the server's clock says): a resync's replay and
            // REST pages stay silent and keep only the server's time.
            if live && !s.replaying {
                s.policy.arrived(events)
                let arrival = now()
                for i in events.indices { events[i].arrivedAt = arrival }
            }
            if s.sequencer.acceptInOrder(events) { return events }
            var applied: [TaskEvent] = []
            applied.reserveCapacity(events.count)
            // By index: each event is passed borrowed, copied once (into `applied`), not twice.
            for i in events.indices {
                switch s.sequencer.accept(events[i], appendingTo: &applied) {
                case nil, .applied: break
                case .duplicate: s.counters.duplicatesDropped += 1
                case .rejected: s.counters.seqRejected += 1
                case .held:
                    held = true
                    let task = events[i].taskID
                    if s.heldSince[task] == nil { s.heldSince[task] = now() }
                    if live && !s.replaying && !s.filling.contains(task) { gaps.insert(task) }
                }
            }
            return applied
        }
        for t in gaps { startFill(t) }
        if held { scheduleSweep() }
    }

    /// Runs `body` on the state and delivers what it applied, in order with other batches:
    /// the batch's ticket is taken under the state's lock, and it is delivered after it, once
    /// every batch sequenced before it was (`DeliveryTurns`; no lock is held across
    /// `onApplied`, which may wait for a full outbox).
    func apply(_ body: (inout State) -> [TaskEvent]) {
        turns.admit()
        let (applied, notes, ticket) = state.withLock { s -> ([TaskEvent], [MeshNotification], UInt64?) in
            let before = s.sequencer.heldDropped
            let applied = body(&s)
            s.counters.heldDropped += s.sequencer.heldDropped - before
            s.counters.eventsApplied += applied.count
            for e in applied { if case .unknown = e.payload { s.counters.unknownTypes += 1 } }
            let notes = s.policy.notifications(for: applied, receivedAt: now(), serverClock: serverClock())
            return (applied, notes, applied.isEmpty && notes.isEmpty ? nil : turns.issue())
        }
        guard let ticket else { return turns.withdraw() }
        turns.deliver(ticket) {
            if !applied.isEmpty { onApplied(applied) }
            if !notes.isEmpty { onNotifications(notes) }
        }
    }

    /// Batches sequenced whose delivery has not ended (waiting for their turn or delivering).
    var deliveriesOutstanding: Int { turns.outstanding }
}
