import Foundation
import Synchronization

/// Counters the engine exposes (Settings/About shows them; tests assert on them).
public struct StreamCounters: Sendable, Equatable {
    public var framesReceived = 0
    public var eventsApplied = 0
    public var duplicatesDropped = 0
    public var malformedSkipped = 0
    public var unknownTypes = 0
    public var holeFills = 0
    public var eventsLost = 0
    public var resyncs = 0
    public init() {}
}

/// Where task events go once they are in order: every applied event exactly once, in `seq`
/// order per task. Frames arrive on the WebSocket thread, hole fills on their own threads;
/// the sequencer is shared behind one lock, and delivery happens under a second lock so
/// batches leave in the order they were applied.
public final class TaskEventPipeline: Sendable {
    public typealias FetchPage = @Sendable (_ taskID: String, _ afterSeq: Int, _ limit: Int) throws -> TaskOutputPage

    private struct State {
        var sequencer: TaskEventSequencer
        var policy: NotificationPolicy
        var counters = StreamCounters()
        var fillsInFlight = Set<String>()
        var replaying = false
    }

    private let state: Mutex<State>
    private let deliveryOrder = Mutex(())
    private let fetchPage: FetchPage
    private let onApplied: @Sendable ([TaskEvent]) -> Void
    private let onNotifications: @Sendable ([MeshNotification]) -> Void
    private let spawn: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let now: @Sendable () -> Date
    public let pageSize: Int
    /// When set, events of other tasks are ignored (`logs --follow` follows one task).
    private let onlyTasks: Set<String>?

    /// `lastSeen` comes from the cache: what an earlier run already holds is never fetched again.
    public init(
        lastSeen: [String: Int], startedAt: Date, pageSize: Int = 500, onlyTasks: Set<String>? = nil,
        fetchPage: @escaping FetchPage,
        onApplied: @escaping @Sendable ([TaskEvent]) -> Void,
        onNotifications: @escaping @Sendable ([MeshNotification]) -> Void = { _ in },
        now: @escaping @Sendable () -> Date = { Date() },
        spawn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { work in Thread.detachNewThread(work) }
    ) {
        state = Mutex(
            State(
                sequencer: TaskEventSequencer(lastApplied: lastSeen), policy: NotificationPolicy(startedAt: startedAt)))
        self.pageSize = pageSize
        self.onlyTasks = onlyTasks
        self.fetchPage = fetchPage
        self.onApplied = onApplied
        self.onNotifications = onNotifications
        self.now = now
        self.spawn = spawn
    }

    public var counters: StreamCounters { state.withLock { $0.counters } }
    public var lastSeen: [String: Int] { state.withLock { $0.sequencer.lastApplied } }
    public var hasGaps: Bool { state.withLock { !$0.sequencer.tasksWithGaps.isEmpty || !$0.fillsInFlight.isEmpty } }

    /// The first message of every (re)connect. Replay follows until `resync.done`; gaps seen
    /// meanwhile wait for it, since the replay usually fills them.
    public func resyncRequest() -> String {
        let seen = state.withLock { s -> [String: Int] in
            s.replaying = true
            s.counters.resyncs += 1
            return s.sequencer.lastApplied
        }
        return StreamMessage.resyncRequest(lastSeen: seen)
    }

    /// Tasks to follow from their start (e.g. `logs --follow` of a task not yet seen).
    public func track(taskID: String, after seq: Int) {
        state.withLock { s in
            s.sequencer.setBaseline(taskID, seq: seq)
        }
    }

    /// Fetches a task's history after what is held, to its end (a task opened on screen that
    /// was not streaming since start-up). Runs on a thread of its own.
    /// `done` runs once the task is up to date, with the error that stopped it, if any.
    public func catchUp(taskID: String, done: @escaping @Sendable (Error?) -> Void = { _ in }) {
        spawn { [self] in
            var failures = 0
            while true {
                let after = state.withLock { $0.sequencer.lastApplied[taskID] ?? 0 }
                let page: TaskOutputPage
                do { page = try fetchPage(taskID, after, pageSize) } catch {
                    failures += 1
                    if failures >= 3 { return done(error) }
                    continue
                }
                let events = page.events.filter { $0.taskID == taskID && $0.seq > after }
                if events.isEmpty { return done(nil) }
                ingest(events, live: false)
            }
        }
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
        for frame in frames {
            do {
                switch try StreamMessage.decode(frame) {
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
        var done = 0
        for (before, control) in controls {
            if before > done { ingest(Array(batch[done..<before]), live: true) }
            done = before
            handle(control)
        }
        if batch.count > done { ingest(done == 0 ? batch : Array(batch[done...]), live: true) }
    }

    private func handle(_ control: StreamMessage) {
        switch control {
        case .event(let e): ingest([e], live: true)
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

    /// A frame that could not be read at all (binary, invalid UTF-8, over the size cap).
    public func countMalformed() { state.withLock { $0.counters.malformedSkipped += 1 } }

    /// The connection dropped: a replay in progress will not finish.
    public func connectionLost() { state.withLock { $0.replaying = false } }

    private func ingest(_ events: [TaskEvent], live: Bool) {
        let gaps = deliveryOrder.withLock { _ -> Set<String> in
            var gaps = Set<String>()
            let (applied, notes) = state.withLock { s -> ([TaskEvent], [MeshNotification]) in
                var applied: [TaskEvent] = []
                for e in events {
                    switch s.sequencer.accept(e) {
                    case .applied(let list): applied.append(contentsOf: list)
                    case .duplicate: s.counters.duplicatesDropped += 1
                    case .held: if live && !s.replaying && !s.fillsInFlight.contains(e.taskID) { gaps.insert(e.taskID) }
                    }
                }
                s.counters.eventsApplied += applied.count
                s.counters.unknownTypes += applied.filter { $0.payload == .unknown }.count
                return (applied, s.policy.notifications(for: applied, receivedAt: now()))
            }
            if !applied.isEmpty { onApplied(applied) }
            if !notes.isEmpty { onNotifications(notes) }
            return gaps
        }
        for t in gaps { startFill(t) }
    }

    private func startFill(_ task: String) {
        let go = state.withLock { s -> Bool in
            guard !s.fillsInFlight.contains(task) else { return false }
            s.fillsInFlight.insert(task)
            s.counters.holeFills += 1
            return true
        }
        if go { spawn { [self] in fill(task) } }
    }

    /// Pages through `GET /mesh/tasks/{id}/output?after_seq=` until the task has no gap.
    private func fill(_ task: String) {
        defer { state.withLock { _ = $0.fillsInFlight.remove(task) } }
        var attempts = 0
        while let after = state.withLock({ $0.sequencer.missingRange(for: task).map { $0.lowerBound - 1 } }) {
            attempts += 1
            guard let page = try? fetchPage(task, after, pageSize) else {
                if attempts >= 5 { return }  // the next resync or live event retries
                Thread.sleep(forTimeInterval: min(4, 0.25 * Double(attempts)))
                continue
            }
            let useful = page.events.filter { $0.taskID == task }
            if useful.isEmpty {
                // The server no longer has these events: apply what is held, count the loss.
                let outcome = state.withLock { s -> TaskEventSequencer.Outcome in
                    let before = s.sequencer.declaredLost
                    let o = s.sequencer.skipGap(task)
                    s.counters.eventsLost += s.sequencer.declaredLost - before
                    return o
                }
                if case .applied(let list) = outcome, !list.isEmpty { deliverInOrder(list) }
                continue
            }
            ingest(useful, live: false)
        }
    }

    private func deliverInOrder(_ list: [TaskEvent]) {
        deliveryOrder.withLock { _ in
            state.withLock { $0.counters.eventsApplied += list.count }
            onApplied(list)
        }
    }
}
