import Foundation
import Synchronization

/// Counters the engine exposes (Settings/About shows them; tests assert on them).
public struct StreamCounters: Sendable, Equatable {
    /// Text frames handed to the pipeline by the socket (events and control messages).
    public var framesReceived = 0
    public var eventsApplied = 0
    /// Events at or below their task's last applied seq, or already held (a replay or a page
    /// that overlaps what the stream brought): dropped.
    public var duplicatesDropped = 0
    /// Frames that did not decode (not JSON, or an event missing a required field).
    public var malformedSkipped = 0
    /// Control messages, and applied events, of a type this client does not know.
    public var unknownTypes = 0
    /// Hole fills started: a task's gap fetched page by page over REST.
    public var holeFills = 0
    /// Seqs skipped because the server no longer has them (a page asked for from below them
    /// starts above them).
    public var eventsLost = 0
    /// Resync requests sent: one per (re)connect.
    public var resyncs = 0
    /// Events whose seq no server can have reached (protocol errors), skipped.
    public var seqRejected = 0
    /// Held events let go (bounds, timed-out waits, seqs the server's REST does not have).
    public var heldDropped = 0
    /// Hole fills and catch-ups that stopped without reaching their goal (see `onProblem`).
    public var fetchesAbandoned = 0
    /// Page requests repeated after an error or an answer that moved nothing.
    public var fetchRetries = 0
    /// Resyncs whose `resync.done` never came in time.
    public var resyncTimeouts = 0
    public init() {}
}

/// Where task events go once they are in order: every applied event exactly once, in `seq`
/// order per task. Frames arrive on the WebSocket thread; REST pages (hole fills and
/// catch-ups) are fetched on one bounded `WorkerPool`. The sequencer is shared behind one
/// lock, and delivery happens under a second lock so batches leave in the order they were
/// applied.
///
/// Every page request is a step of a retry loop that must make progress: a step that fails
/// or moves nothing is retried after a growing delay (at least the server's `Retry-After`),
/// and after `Limits.attempts` such steps in a row the loop gives up, counts it and says so
/// through `onProblem`.
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
        public init() {}

        /// The wait before retry number `failures` (1, 2, …): doubling from `backoffInitial`
        /// up to `backoffCap`, and never shorter than the server's `Retry-After` (capped).
        public func retryDelay(failures: Int, retryAfter: TimeInterval?) -> TimeInterval {
            let base = min(backoffCap, backoffInitial * pow(2, Double(min(max(failures, 1), 32) - 1)))
            guard let retryAfter, retryAfter.isFinite, retryAfter > 0 else { return base }
            return max(base, min(retryAfter, retryAfterCap))
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

    private struct State {
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

    private let state: Mutex<State>
    private let deliveryOrder = Mutex(())
    private let pool: WorkerPool
    private let fetchPage: FetchPage
    private let onApplied: @Sendable ([TaskEvent]) -> Void
    private let onNotifications: @Sendable ([MeshNotification]) -> Void
    private let onProblem: @Sendable (String) -> Void
    private let retryAfter: @Sendable (Error) -> TimeInterval?
    private let now: @Sendable () -> Date
    private let serverClock: @Sendable () -> ClockOffset
    public let pageSize: Int
    public let limits: Limits
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

    /// Runs `body` on the state and delivers what it applied, in order with other batches.
    private func apply(_ body: (inout State) -> [TaskEvent]) {
        deliveryOrder.withLock { _ in
            let (applied, notes) = state.withLock { s -> ([TaskEvent], [MeshNotification]) in
                let before = s.sequencer.heldDropped
                let applied = body(&s)
                s.counters.heldDropped += s.sequencer.heldDropped - before
                s.counters.eventsApplied += applied.count
                for e in applied { if case .unknown = e.payload { s.counters.unknownTypes += 1 } }
                return (applied, s.policy.notifications(for: applied, receivedAt: now(), serverClock: serverClock()))
            }
            if !applied.isEmpty { onApplied(applied) }
            if !notes.isEmpty { onNotifications(notes) }
        }
    }

    // MARK: Hole fills

    private func startFill(_ task: String) {
        let delay = state.withLock { s -> TimeInterval? in
            guard !s.filling.contains(task) else { return nil }
            s.filling.insert(task)
            s.counters.holeFills += 1
            let failures = s.fillFailures[task] ?? 0
            return failures == 0 ? 0 : limits.retryDelay(failures: failures, retryAfter: nil)
        }
        if let delay { submitFill(task, delay: delay) }
    }

    private func submitFill(_ task: String, delay: TimeInterval) {
        let queued = pool.submit(key: "fill " + task, after: delay) { [self] in fillStep(task) }
        if !queued { state.withLock { _ = $0.filling.remove(task) } }  // full: the next event retries
    }

    /// One page of `GET /mesh/tasks/{id}/output?after_seq=` for the task's first gap; queues
    /// the next step until the task has no gap, or gives up.
    private func fillStep(_ task: String) {
        let gap = state.withLock { s -> (after: Int, upTo: Int)? in
            guard let range = s.sequencer.missingRange(for: task) else {
                s.filling.remove(task)
                return nil
            }
            return (range.lowerBound - 1, s.sequencer.highestWanted(for: task) ?? range.upperBound)
        }
        guard let gap else { return }
        let page: TaskOutputPage
        do { page = try fetchPage(task, gap.after, pageSize) } catch {
            return fillSetback(task, retryAfter: retryAfter(error), why: "\(error)")
        }
        var progress = false
        var denied = false
        apply { s in
            let before = s.sequencer.lastApplied[task] ?? 0
            let (applied, lost) = s.sequencer.acceptPage(task: task, after: gap.after, events: page.events)
            s.counters.eventsLost += lost
            progress = (s.sequencer.lastApplied[task] ?? 0) > before
            if !progress && !page.events.contains(where: { $0.taskID == task }) {
                // Nothing of this task after the mark on the server: what was seen above it
                // is not the server's. (A page of old events is a server ignoring
                // `after_seq`: a setback, retried and then given up, below.)
                s.sequencer.forget(task, upTo: gap.upTo)
                denied = true
            }
            return applied
        }
        if progress || denied {
            let more = state.withLock { s -> Bool in
                if progress { s.fillFailures[task] = nil }
                if s.sequencer.missingRange(for: task) != nil { return true }
                s.filling.remove(task)
                s.heldSince[task] = nil
                return false
            }
            if more { submitFill(task, delay: 0) }
            return
        }
        fillSetback(task, retryAfter: nil, why: "the page after seq \(gap.after) moved nothing")
    }

    /// A fill step failed or moved nothing: retry later, or give up after `Limits.attempts`.
    private func fillSetback(_ task: String, retryAfter: TimeInterval?, why: String) {
        let next = state.withLock { s -> TimeInterval? in
            let failures = (s.fillFailures[task] ?? 0) + 1
            s.fillFailures[task] = failures
            if failures < limits.attempts && s.sequencer.missingRange(for: task) != nil {
                s.counters.fetchRetries += 1
                return limits.retryDelay(failures: failures, retryAfter: retryAfter)
            }
            if let range = s.sequencer.missingRange(for: task) {
                let before = s.sequencer.heldDropped
                s.sequencer.forget(task, upTo: s.sequencer.highestWanted(for: task) ?? range.upperBound)
                s.counters.heldDropped += s.sequencer.heldDropped - before
                s.counters.fetchesAbandoned += 1
            }
            s.filling.remove(task)
            s.heldSince[task] = nil
            return nil
        }
        if let next { return submitFill(task, delay: next) }
        onProblem(
            "task \(UntrustedText.clean(task)): missing output could not be fetched (\(why)); "
                + "gave up for now (asked for again with the task's next event or reconnect)")
    }

    // MARK: Catch-up

    private func submitCatchUp(_ task: String, failures: Int, delay: TimeInterval) {
        let queued = pool.submit(key: "catch-up " + task, after: delay, priority: 1) { [self] in
            catchUpStep(task, failures: failures)
        }
        if !queued {
            finishCatchUp(task, error: APIError.transport("the sync engine is stopped or has too many fetches queued"))
        }
    }

    private func catchUpStep(_ task: String, failures: Int) {
        let after = state.withLock { $0.sequencer.lastApplied[task] ?? 0 }
        let page: TaskOutputPage
        do { page = try fetchPage(task, after, pageSize) } catch {
            if error is CancellationError || failures + 1 >= limits.attempts
                || (error as? APIError)?.isUnauthorized == true
            {
                return finishCatchUp(task, error: error)
            }
            state.withLock { $0.counters.fetchRetries += 1 }
            let delay = limits.retryDelay(failures: failures + 1, retryAfter: retryAfter(error))
            return submitCatchUp(task, failures: failures + 1, delay: delay)
        }
        var progress = false
        apply { s in
            let (applied, lost) = s.sequencer.acceptPage(task: task, after: after, events: page.events)
            s.counters.eventsLost += lost
            progress = (s.sequencer.lastApplied[task] ?? 0) > after
            return applied
        }
        if progress { return submitCatchUp(task, failures: 0, delay: 0) }
        if page.events.filter({ $0.taskID == task }).isEmpty { return finishCatchUp(task, error: nil) }
        // Events, but none after the mark that could be applied: the server ignored `after_seq`
        // or sent seqs no server has. Back off, then give up visibly.
        if failures + 1 >= limits.attempts {
            state.withLock { $0.counters.fetchesAbandoned += 1 }
            return finishCatchUp(task, error: FetchProblem.noProgress(attempts: failures + 1))
        }
        state.withLock { $0.counters.fetchRetries += 1 }
        submitCatchUp(task, failures: failures + 1, delay: limits.retryDelay(failures: failures + 1, retryAfter: nil))
    }

    private func finishCatchUp(_ task: String, error: Error?) {
        let waiters = state.withLock { $0.catchUpWaiters.removeValue(forKey: task) ?? [] }
        for done in waiters { done(error) }
    }

    // MARK: Timeouts

    /// While a replay runs or events are held, checks the waits every second or so.
    private func scheduleSweep() {
        let go = state.withLock { s -> Bool in
            if s.sweepQueued { return false }
            s.sweepQueued = true
            return true
        }
        guard go else { return }
        let interval = max(0.05, min(1, limits.replayTimeout / 4, limits.heldTimeout / 4))
        if !pool.submit(key: "sweep", after: interval, priority: 2, { [self] in sweep() }) {
            state.withLock { $0.sweepQueued = false }
        }
    }

    /// A replay whose `resync.done` is overdue counts as done; events held past
    /// `Limits.heldTimeout` without a fill working on them are let go and fetched over REST.
    private func sweep() {
        let t = now()
        var toFill: [String] = []
        let again = state.withLock { s -> Bool in
            s.sweepQueued = false
            if s.replaying && t.timeIntervalSince(s.replayStartedAt) >= limits.replayTimeout {
                s.replaying = false
                s.counters.resyncTimeouts += 1
                toFill += s.sequencer.tasksWithGaps
            }
            let gaps = Set(s.sequencer.tasksWithGaps)
            for (task, since) in s.heldSince {
                if !gaps.contains(task) {
                    s.heldSince[task] = nil
                } else if !s.replaying && !s.filling.contains(task) && t.timeIntervalSince(since) >= limits.heldTimeout
                {
                    let before = s.sequencer.heldDropped
                    s.sequencer.releaseHeld(task)
                    s.counters.heldDropped += s.sequencer.heldDropped - before
                    s.heldSince[task] = nil
                    toFill.append(task)
                }
            }
            return s.replaying || !s.heldSince.isEmpty
        }
        for task in Set(toFill) { startFill(task) }
        if again { scheduleSweep() }
    }
}
