import Foundation
import TestSupport
import Testing

@testable import MakimaKit

@Suite struct BackoffTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func delays(_ backoff: inout Backoff, count: Int, from start: Date) -> [TimeInterval] {
        var now = start
        return (0..<count).map { _ in
            let at = backoff.scheduleRetry(now: now)
            defer { now = at }
            return at.timeIntervalSince(now)
        }
    }

    @Test func doublesFromOneSecondAndStopsAtThirty() {
        var backoff = Backoff(policy: BackoffPolicy(jitter: 0), random: SeededGenerator(state: 1))
        #expect(delays(&backoff, count: 9, from: t0) == [1, 2, 4, 8, 16, 30, 30, 30, 30])
        #expect(backoff.failures == 9)
    }

    @Test func hugeFailureCountsStayAtTheCap() {
        let policy = BackoffPolicy()
        #expect(policy.baseDelay(afterFailures: 0) == 0)
        #expect(policy.baseDelay(afterFailures: 10_000) == 30)
    }

    @Test func jitterStaysWithinTwentyPercentAndUnderTheCap() {
        var backoff = Backoff(policy: BackoffPolicy(), random: SeededGenerator(state: 42))
        var seen: [Int: [TimeInterval]] = [:]
        for _ in 0..<2000 {
            backoff.connectionOpened(at: t0)
            backoff.connectionClosed(at: t0.addingTimeInterval(60))  // healthy: back to the start
            for (i, d) in delays(&backoff, count: 7, from: t0).enumerated() { seen[i + 1, default: []].append(d) }
        }
        for (failures, draws) in seen {
            let base = BackoffPolicy().baseDelay(afterFailures: failures)
            #expect(draws.allSatisfy { $0 >= base * 0.8 && $0 <= min(base * 1.2, 30) }, "failure \(failures)")
            // Really spread, not a constant: both halves of the band are used.
            #expect(draws.contains { $0 < base * 0.95 }, "failure \(failures)")
            if base * 1.05 < 30 { #expect(draws.contains { $0 > base * 1.05 }, "failure \(failures)") }
        }
    }

    @Test func sameSeedSameDelays() {
        var a = Backoff(random: SeededGenerator(state: 7))
        var b = Backoff(random: SeededGenerator(state: 7))
        #expect(delays(&a, count: 6, from: t0) == delays(&b, count: 6, from: t0))
    }

    @Test func healthyConnectionResetsButAShortOneDoesNot() {
        var backoff = Backoff(policy: BackoffPolicy(jitter: 0), random: SeededGenerator(state: 1))
        _ = delays(&backoff, count: 4, from: t0)  // 1, 2, 4, 8
        backoff.connectionOpened(at: t0)
        backoff.connectionClosed(at: t0.addingTimeInterval(9.9))
        #expect(backoff.scheduleRetry(now: t0).timeIntervalSince(t0) == 16)
        backoff.connectionOpened(at: t0)
        backoff.connectionClosed(at: t0.addingTimeInterval(10))
        #expect(backoff.failures == 0)
        #expect(backoff.scheduleRetry(now: t0).timeIntervalSince(t0) == 1)
    }

    @Test func retryNowMakesTheAttemptDueButKeepsTheCount() {
        var backoff = Backoff(policy: BackoffPolicy(jitter: 0), random: SeededGenerator(state: 1))
        _ = delays(&backoff, count: 3, from: t0)
        let now = t0.addingTimeInterval(1000)
        let at = backoff.scheduleRetry(now: now)  // 8 s away
        #expect(!backoff.isDue(now: now.addingTimeInterval(7.9)))
        #expect(backoff.isDue(now: at))
        backoff.retryNow(now: now.addingTimeInterval(1))
        #expect(backoff.isDue(now: now.addingTimeInterval(1)))
        #expect(backoff.scheduleRetry(now: now).timeIntervalSince(now) == 16)
    }

    @Test func retryNowWithoutAPlannedRetryChangesNothing() {
        var backoff = Backoff()
        backoff.retryNow(now: t0)
        #expect(backoff.nextRetry == nil)
        #expect(backoff.failures == 0)
    }

    @Test func aServersRetryAfterIsAFloorBeyondTheCapThatRetryNowKeeps() {
        var backoff = Backoff(policy: BackoffPolicy(jitter: 0), random: SeededGenerator(state: 1))
        // Far over the 30 s cap: the server asked, so it is obeyed (up to retryAfterCap).
        #expect(backoff.scheduleRetry(now: t0, retryAfter: 120).timeIntervalSince(t0) == 120)
        #expect(backoff.notBefore == t0.addingTimeInterval(120))
        backoff.retryNow(now: t0.addingTimeInterval(5))
        #expect(!backoff.isDue(now: t0.addingTimeInterval(119)))
        #expect(backoff.isDue(now: t0.addingTimeInterval(120)))
        // Shorter than the backoff's own delay: the backoff's wins (failure 2: 2 s).
        #expect(backoff.scheduleRetry(now: t0, retryAfter: 0.5).timeIntervalSince(t0) == 2)
        // The next refusal without one: the hold is gone, retryNow cuts the wait again.
        backoff.scheduleRetry(now: t0)
        #expect(backoff.notBefore == nil)
        backoff.retryNow(now: t0.addingTimeInterval(1))
        #expect(backoff.isDue(now: t0.addingTimeInterval(1)))
    }

    @Test func absurdRetryAfterValuesAreCappedOrIgnored() {
        let policy = BackoffPolicy(jitter: 0, retryAfterCap: 300)
        for (asked, waited) in [
            (RetryAfter.maxSeconds, 300.0), (1e300, 300), (.infinity, 1), (.nan, 1), (-50, 1), (0, 1), (-.infinity, 1),
        ] {
            var backoff = Backoff(policy: policy, random: SeededGenerator(state: 1))
            #expect(backoff.scheduleRetry(now: t0, retryAfter: asked).timeIntervalSince(t0) == waited, "\(asked)")
        }
        #expect(BackoffPolicy(retryAfterCap: -5).serverWait(60) == 0)
    }

    @Test func openingClearsThePlannedRetry() {
        var backoff = Backoff()
        backoff.scheduleRetry(now: t0)
        backoff.connectionOpened(at: t0.addingTimeInterval(2))
        #expect(backoff.nextRetry == nil)
    }
}
