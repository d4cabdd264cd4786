import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// The pipeline against a hostile server: absurd seqs, endless gaps, answers that move
/// nothing, a missing `resync.done`, `Retry-After`.
@Suite struct TaskEventPipelineHardeningTests {
    /// Fast retries, so a test sees every attempt of a loop that gives up.
    static func quickLimits() -> TaskEventPipeline.Limits {
        var limits = TaskEventPipeline.Limits()
        limits.backoffInitial = 0.01
        limits.backoffCap = 0.05
        return limits
    }

    static func wait(timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    /// Moves `clock` on by `seconds` and lets the pipeline's delayed work that became due run.
    static func advance(_ clock: TestClock, _ seconds: TimeInterval, _ pipeline: TaskEventPipeline) {
        clock.advance(seconds)
        pipeline.clockMoved()
    }

    static func emptyPage() -> TaskOutputPage { EventLog().page("none", after: 0, limit: 1) }

    /// One frame with seq Int.max for an unknown task, then an empty `/output` page, killed
    /// every client with an arithmetic overflow.
    @Test func anAbsurdSeqThenAnEmptyPageIsSkippedAndCounted() {
        let requests = Locked(0)
        let applied = Recorder<Int>()
        let pipeline = TaskEventPipeline(
            lastSeen: [:], limits: Self.quickLimits(),
            fetchPage: { _, _, _ in
                requests.withLock { $0 += 1 }
                return Self.emptyPage()
            },
            onApplied: { for e in $0 { applied.add(e.seq) } })
        _ = pipeline.resyncRequest()
        pipeline.receive(frame: #"{"type":"resync.done"}"#)
        pipeline.receive(frame: frame(outputEvent("t", Int.max)))
        pipeline.receive(frame: frame(outputEvent("t", Int.max - 1)))
        // Large but representable: the server's empty page denies it, so it is forgotten
        // instead of raising the task's mark above every real event.
        pipeline.receive(frame: frame(outputEvent("u", 1 << 52)))
        #expect(Self.wait { !pipeline.hasGaps })
        #expect(pipeline.counters.seqRejected == 2)
        #expect(pipeline.counters.heldDropped == 1)
        #expect(pipeline.counters.eventsLost == 0)
        pipeline.receive(frame: frame(outputEvent("u", 1)))
        pipeline.receive(frame: frame(outputEvent("t", 1)))
        #expect(applied.all == [1, 1])
        #expect(requests.withLock { $0 } == 1)
        pipeline.stop()
    }

    /// Tasks with gaps while the server hangs used to cost a thread each.
    @Test func holeFillsForManyTasksRunOnABoundedPool() {
        let log = Locked(EventLog())
        let gate = DispatchSemaphore(value: 0)
        let inFlight = Locked((now: 0, peak: 0))
        var limits = Self.quickLimits()
        limits.workers = 3
        let pipeline = TaskEventPipeline(
            lastSeen: [:], limits: limits,
            fetchPage: { task, after, limit in
                inFlight.withLock {
                    $0.now += 1
                    $0.peak = max($0.peak, $0.now)
                }
                defer { inFlight.withLock { $0.now -= 1 } }
                _ = gate.wait(timeout: .now() + 30)  // the server hangs until the test lets go
                gate.signal()
                return log.withLock { $0.page(task, after: after, limit: limit) }
            },
            onApplied: { _ in })
        _ = pipeline.resyncRequest()
        pipeline.receive(frame: #"{"type":"resync.done"}"#)
        for i in 0..<500 {
            let task = "task-\(i)"
            let events = log.withLock { l in (0..<3).map { _ in l.emit(task, "x") } }
            pipeline.receive(frame: frame(events[2]))  // 1 and 2 lost: a gap per task
        }
        #expect(Self.wait { inFlight.withLock { $0.now } == 3 })
        #expect(pipeline.fetchThreads.now <= 3)
        gate.signal()
        #expect(Self.wait(timeout: 60) { !pipeline.hasGaps })
        #expect(inFlight.withLock { $0.peak } <= 3)
        #expect(pipeline.fetchThreads.peak <= 3)
        #expect(pipeline.lastSeen.count == 500 && pipeline.lastSeen.values.allSatisfy { $0 == 3 })
        pipeline.stop()
    }

    /// A server that ignores `after_seq` (always the first page) made the fill re-request at
    /// full speed, forever. On the test's clock: each retry waits until the clock is moved, and
    /// once the fill gives up the pipeline is quiet (nothing queued or running), so no loop can
    /// be counting behind the test's back.
    @Test func aFillAgainstAServerIgnoringAfterSeqBacksOffAndGivesUpVisibly() {
        let log = Locked(EventLog())
        let requests = Locked(0)
        let problems = Recorder<String>()
        let clock = TestClock()
        let pipeline = TaskEventPipeline(
            lastSeen: [:], pageSize: 2, limits: Self.quickLimits(),
            fetchPage: { task, _, limit in
                requests.withLock { $0 += 1 }
                return log.withLock { $0.page(task, after: 0, limit: limit) }
            },
            onApplied: { _ in }, onProblem: { problems.add($0) }, now: { clock.read })
        _ = pipeline.resyncRequest()
        pipeline.receive(frame: #"{"type":"resync.done"}"#)
        let events = log.withLock { l in (1...10).map { _ in l.emit("t", "x") } }
        pipeline.receive(frame: frame(events[9]))
        let limits = pipeline.limits
        // The first page applies seqs 1-2; each later one moves nothing and is a setback.
        for setback in 1..<limits.attempts {
            // The retry waits out its backoff: not one request more until the clock moves.
            #expect(
                Self.wait { requests.withLock { $0 } == setback + 1 && pipeline.waitingFetches.contains("fill t") })
            #expect(requests.withLock { $0 } == setback + 1)
            Self.advance(clock, limits.backoffCap, pipeline)
        }
        // Given up: no fill queued or running, so none can be counting behind the test's back.
        #expect(Self.wait { !pipeline.pendingFetches.contains("fill t") && !pipeline.hasGaps })
        #expect(requests.withLock { $0 } == limits.attempts + 1)
        #expect(pipeline.lastSeen["t"] == 2, "the first page applied, then nothing moved")
        #expect(pipeline.counters.fetchesAbandoned == 1)
        #expect(problems.all.count == 1)
        #expect(problems.all.first?.contains("task t") == true)
        // The next gap of that task waits out its backoff instead of firing at the event rate.
        pipeline.receive(frame: frame(log.withLock { $0.emit("t", "x") }))
        #expect(pipeline.waitingFetches.contains("fill t"))
        #expect(requests.withLock { $0 } == limits.attempts + 1)
        pipeline.stop()
    }

    /// An output page that starts above `after + 1` made catch-up loop at full speed
    /// and the task view stayed on "loading output…".
    @Test func aCatchUpWhosePageStartsAboveTheMarkEnds() {
        let log = Locked(EventLog())
        let requests = Locked(0)
        _ = log.withLock { l in (1...20).map { _ in l.emit("t", "x") } }
        let pipeline = TaskEventPipeline(
            lastSeen: [:], pageSize: 5, limits: Self.quickLimits(),
            fetchPage: { task, after, limit in
                requests.withLock { $0 += 1 }
                // The server lost seqs up to 7: its pages start at 8.
                return log.withLock { $0.page(task, after: max(after, 7), limit: limit) }
            },
            onApplied: { _ in })
        let done = Locked<[String]>([])
        pipeline.catchUp(taskID: "t") { error in done.withLock { $0.append(error.map { "\($0)" } ?? "ok") } }
        #expect(Self.wait { !done.withLock { $0 }.isEmpty })
        #expect(done.withLock { $0 } == ["ok"])
        #expect(pipeline.lastSeen["t"] == 20)
        #expect(pipeline.counters.eventsLost == 7)
        #expect(requests.withLock { $0 } <= 5)
        pipeline.stop()
    }

    @Test func aCatchUpAgainstAServerIgnoringAfterSeqGivesUpWithAnError() {
        let log = Locked(EventLog())
        _ = log.withLock { l in (1...20).map { _ in l.emit("t", "x") } }
        let requests = Locked(0)
        let pipeline = TaskEventPipeline(
            lastSeen: [:], pageSize: 5, limits: Self.quickLimits(),
            fetchPage: { task, _, limit in
                requests.withLock { $0 += 1 }
                return log.withLock { $0.page(task, after: 0, limit: limit) }
            },
            onApplied: { _ in })
        let done = Locked<[String]>([])
        pipeline.catchUp(taskID: "t") { error in done.withLock { $0.append(error.map { "\($0)" } ?? "ok") } }
        pipeline.catchUp(taskID: "t") { error in done.withLock { $0.append(error.map { "\($0)" } ?? "ok") } }
        #expect(Self.wait { done.withLock { $0 }.count == 2 })
        #expect(done.withLock { $0 }.allSatisfy { $0.contains("moved nothing") })
        #expect(requests.withLock { $0 } <= pipeline.limits.attempts + 1)
        #expect(pipeline.counters.fetchesAbandoned == 1)
        pipeline.stop()
    }

    /// Without `resync.done`, events held behind a gap stayed forever.
    @Test func aReplayThatNeverEndsTimesOutAndGapsAreFilledOverREST() {
        let log = Locked(EventLog())
        var limits = Self.quickLimits()
        limits.replayTimeout = 20
        let clock = TestClock()
        let pipeline = TaskEventPipeline(
            lastSeen: [:], limits: limits,
            fetchPage: { task, after, limit in log.withLock { $0.page(task, after: after, limit: limit) } },
            onApplied: { _ in }, now: { clock.read })
        _ = pipeline.resyncRequest()
        let events = log.withLock { l in (1...5).map { _ in l.emit("t", "x") } }
        pipeline.receive(frame: frame(events[4]))
        #expect(pipeline.heldCount == 1)
        // Short of the timeout the events wait for the replay (the sweep is due, not run).
        #expect(Self.wait { pipeline.waitingFetches == ["sweep"] })
        #expect(pipeline.lastSeen["t"] == nil && pipeline.counters.resyncTimeouts == 0)
        // Each sweep looks again a quarter of the timeout later (at most a second).
        for _ in 0..<20 { Self.advance(clock, 1, pipeline) }
        #expect(Self.wait { pipeline.lastSeen["t"] == 5 })
        #expect(pipeline.heldCount == 0)
        #expect(pipeline.counters.resyncTimeouts == 1)
        pipeline.stop()
    }

    /// Held events whose fill cannot run (the server keeps failing) are let go after the
    /// held timeout, and refetched over REST once the server answers again.
    @Test func heldEventsTimeOutAndAreRefetched() {
        let log = Locked(EventLog())
        let failing = Locked(true)
        var limits = Self.quickLimits()
        limits.heldTimeout = 0.2
        limits.attempts = 2
        let clock = TestClock()
        let pipeline = TaskEventPipeline(
            lastSeen: [:], limits: limits,
            fetchPage: { task, after, limit in
                if failing.withLock({ $0 }) { throw APIError.http(status: 500, message: "down") }
                return log.withLock { $0.page(task, after: after, limit: limit) }
            },
            onApplied: { _ in }, now: { clock.read })
        _ = pipeline.resyncRequest()
        let events = log.withLock { l in (1...4).map { _ in l.emit("t", "x") } }
        pipeline.receive(frame: #"{"type":"resync.done"}"#)
        pipeline.receive(frame: frame(events[2]))
        pipeline.receive(frame: frame(events[3]))
        // The failed first attempt backs off; the clock moving lets the second (and last) run.
        #expect(Self.wait { pipeline.waitingFetches.contains("fill t") })
        Self.advance(clock, limits.backoffCap, pipeline)
        #expect(Self.wait { pipeline.counters.fetchesAbandoned == 1 })
        #expect(pipeline.heldCount == 0, "a fill that gave up lets its held events go")
        failing.withLock { $0 = false }
        pipeline.receive(frame: frame(log.withLock { $0.emit("t", "x") }))
        // The task's next fill still waits out the backoff of its failures.
        #expect(pipeline.waitingFetches.contains("fill t"))
        Self.advance(clock, limits.backoffCap, pipeline)
        #expect(Self.wait { pipeline.lastSeen["t"] == 5 })
        pipeline.stop()
    }

    /// Held events were capped per task only, so many tasks grew the client without bound.
    @Test func heldEventsAreBoundedAcrossTasks() {
        var limits = Self.quickLimits()
        limits.maxHeldTotal = 1_000
        limits.maxHeldBytes = 4 << 20
        let pipeline = TaskEventPipeline(
            lastSeen: [:], limits: limits,
            fetchPage: { _, _, _ in throw APIError.transport("hanging") }, onApplied: { _ in })
        _ = pipeline.resyncRequest()  // replaying: gaps wait, events pile up
        let text = String(repeating: "y", count: 8_192)
        for t in 0..<2_000 {
            for seq in 2...3 { pipeline.receive(frame: frame(outputEvent("task-\(t)", seq, text))) }
        }
        #expect(pipeline.heldCount <= 1_000)
        #expect(pipeline.heldCount * 8_192 <= 4 << 20)
        #expect(pipeline.counters.heldDropped >= 3_000)
        pipeline.stop()
    }

    /// A 429 asking for half a second is waited out on the clock: moved 0.4 s nothing is
    /// fetched, moved past 0.5 s the fill runs.
    @Test func aFillHonoursRetryAfter() {
        let log = Locked(EventLog())
        let requests = Locked(0)
        let clock = TestClock()
        let pipeline = TaskEventPipeline(
            lastSeen: [:], limits: Self.quickLimits(),
            fetchPage: { task, after, limit in
                let n = requests.withLock { n -> Int in
                    n += 1
                    return n
                }
                if n == 1 { throw APIError.throttled(status: 429, retryAfter: 0.5, message: "") }
                return log.withLock { $0.page(task, after: after, limit: limit) }
            },
            onApplied: { _ in }, now: { clock.read })
        _ = pipeline.resyncRequest()
        pipeline.receive(frame: #"{"type":"resync.done"}"#)
        let events = log.withLock { l in (1...3).map { _ in l.emit("t", "x") } }
        pipeline.receive(frame: frame(events[2]))
        #expect(Self.wait { requests.withLock { $0 } == 1 && pipeline.waitingFetches.contains("fill t") })
        // Past the backoff (at most 0.05 s here) but short of what the server asked.
        Self.advance(clock, 0.4, pipeline)
        #expect(pipeline.waitingFetches.contains("fill t"))
        #expect(requests.withLock { $0 } == 1)
        Self.advance(clock, 0.11, pipeline)
        #expect(Self.wait { pipeline.lastSeen["t"] == 3 })
        #expect(requests.withLock { $0 } == 2)
        pipeline.stop()
    }
}
