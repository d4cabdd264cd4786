import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// The one retry helper of the engine's page loops: attempts and delays bounded, a server's
/// `Retry-After` honoured within its cap, stop honoured; and the loops that use it wait on the
/// pipeline's clock, never on a real sleep.
@Suite struct RetryLoopTests {
    static let standard = RetryLoop(attempts: 5, initial: 0.5, cap: 30, retryAfterCap: 300)

    /// Runs a loop of steps the way the pipeline does, with the wait injected: `step` says
    /// whether it was a setback (and a `Retry-After`), `stop` whether the caller stops, and
    /// the delays asked for are recorded instead of slept. Returns the steps run and the delays.
    static func run(
        _ loop: RetryLoop, maxSteps: Int = 1_000, step: (Int) -> (setback: Bool, retryAfter: TimeInterval?),
        stop: (Int) -> Bool = { _ in false }
    ) -> (steps: Int, delays: [TimeInterval]) {
        var delays: [TimeInterval] = []
        var failures = 0
        var steps = 0
        while steps < maxSteps {
            steps += 1
            let outcome = step(steps)
            guard outcome.setback else {
                failures = 0
                continue
            }
            failures += 1
            switch loop.next(afterSetback: failures, retryAfter: outcome.retryAfter, stop: stop(steps)) {
            case .giveUp: return (steps, delays)
            case .retry(let delay): delays.append(delay)
            }
        }
        return (steps, delays)
    }

    @Test func aLoopThatAlwaysFailsStopsAfterItsAttempts() {
        let (steps, delays) = Self.run(Self.standard) { _ in (true, nil) }
        #expect(steps == 5)
        #expect(delays == [0.5, 1, 2, 4])
    }

    /// Progress between setbacks starts the count again: only setbacks in a row end a loop.
    @Test func progressResetsTheCount() {
        // Four setbacks, a step that moves, four more, then a run of five.
        let (steps, delays) = Self.run(Self.standard) { n in (n != 5 && n != 10, nil) }
        #expect(steps == 15)
        #expect(delays == [0.5, 1, 2, 4, 0.5, 1, 2, 4, 0.5, 1, 2, 4])
    }

    @Test func delaysDoubleUpToTheCap() {
        let delays = (0...12).map { Self.standard.delay(afterFailures: $0) }
        #expect(delays == [0, 0.5, 1, 2, 4, 8, 16, 30, 30, 30, 30, 30, 30])
        // No count overflows the doubling or passes the cap.
        #expect(Self.standard.delay(afterFailures: .max) == 30)
        let long = RetryLoop(attempts: 1_000, initial: 0.5, cap: 30, retryAfterCap: 300)
        let (steps, waited) = Self.run(long) { _ in (true, nil) }
        #expect(steps == 1_000)
        #expect(waited.count == 999 && waited.allSatisfy { $0 > 0 && $0 <= 30 })
        #expect(zip(waited, waited.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func aServersRetryAfterIsAFloorWithinItsCap() {
        let loop = Self.standard
        #expect(loop.delay(afterFailures: 1, retryAfter: 7) == 7)
        #expect(loop.delay(afterFailures: 7, retryAfter: 7) == 30, "never shorter than the backoff")
        #expect(loop.delay(afterFailures: 1, retryAfter: 86_400) == 300, "cut to retryAfterCap")
        for nonsense in [-5, 0, .nan, .infinity] as [TimeInterval] {
            #expect(loop.delay(afterFailures: 2, retryAfter: nonsense) == 1)
        }
        let (steps, delays) = Self.run(loop) { _ in (true, 100) }
        #expect(steps == 5 && delays == [100, 100, 100, 100])
    }

    @Test func stopEndsTheLoopAtOnce() {
        #expect(Self.standard.next(afterSetback: 1, stop: true) == .giveUp)
        let (steps, delays) = Self.run(Self.standard, step: { _ in (true, nil) }, stop: { $0 == 2 })
        #expect(steps == 2 && delays == [0.5])
    }

    @Test func attemptsAreAtLeastOne() {
        let loop = RetryLoop(attempts: 0, initial: 0.5, cap: 30, retryAfterCap: 300)
        #expect(loop.attempts == 1)
        #expect(loop.next(afterSetback: 1) == .giveUp)
        #expect(Self.run(loop) { _ in (true, nil) }.steps == 1)
    }

    /// The pipeline's catch-up is such a loop: each retry waits on the pipeline's clock (moved
    /// by hand here), the waits are the loop's delays, and it gives up after its attempts with
    /// the error that stopped it.
    @Test func aCatchUpWaitsItsDelaysOnTheClockAndGivesUp() {
        var limits = TaskEventPipeline.Limits()
        limits.attempts = 4
        let clock = TestClock()
        let requests = Locked(0)
        let result = Locked<String?>(nil)
        let pipeline = TaskEventPipeline(
            lastSeen: [:], limits: limits,
            fetchPage: { _, _, _ in
                requests.withLock { $0 += 1 }
                throw APIError.http(status: 500, message: "down")
            },
            onApplied: { _ in }, now: { clock.read })
        pipeline.catchUp(taskID: "t") { error in result.withLock { $0 = error.map { "\($0)" } ?? "none" } }
        for (n, delay) in [0.5, 1, 2].enumerated() {
            #expect(TaskEventPipelineHardeningTests.wait { requests.withLock { $0 } == n + 1 })
            #expect(TaskEventPipelineHardeningTests.wait { pipeline.waitingFetches == ["catch-up t"] })
            // Short of the delay nothing more is asked.
            TaskEventPipelineHardeningTests.advance(clock, delay * 0.9, pipeline)
            #expect(pipeline.waitingFetches == ["catch-up t"])
            #expect(requests.withLock { $0 } == n + 1)
            TaskEventPipelineHardeningTests.advance(clock, delay * 0.1 + 0.001, pipeline)
        }
        #expect(TaskEventPipelineHardeningTests.wait { result.withLock { $0 } != nil })
        #expect(requests.withLock { $0 } == 4)
        #expect(pipeline.counters.fetchRetries == 3)
        #expect(result.withLock { $0 }?.contains("500") == true)
        pipeline.stop()
    }

    /// A catch-up stopped by the engine (a cancelled request) ends at its first setback.
    @Test func aCancelledCatchUpEndsAtOnce() {
        let requests = Locked(0)
        let ended = Locked(false)
        let pipeline = TaskEventPipeline(
            lastSeen: [:],
            fetchPage: { _, _, _ in
                requests.withLock { $0 += 1 }
                throw CancellationError()
            },
            onApplied: { _ in })
        pipeline.catchUp(taskID: "t") { error in ended.withLock { $0 = error is CancellationError } }
        #expect(TaskEventPipelineHardeningTests.wait { ended.withLock { $0 } })
        #expect(requests.withLock { $0 } == 1)
        #expect(pipeline.counters.fetchRetries == 0)
        pipeline.stop()
    }
}
