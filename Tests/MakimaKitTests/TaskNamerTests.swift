import Foundation
import Synchronization
import Testing

@testable import MakimaKit

/// The fetches of tasks known by id alone are deduplicated, queued within a bound and spent
/// from a token bucket: what the server sends cannot become as many requests.
@Suite struct TaskNamerTests {
    /// A clock that moves only when the test says.
    final class FrozenClock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_000_000))
        func advance(_ s: TimeInterval) { now.withLock { $0 += s } }
    }

    final class Fetches: Sendable {
        let asked = Mutex<[String]>([])
        let missing: Set<String>
        init(missing: Set<String> = []) { self.missing = missing }
        func fetch(_ ids: [String]) -> TaskNamer.Report {
            asked.withLock { $0 += ids }
            let notFound = ids.filter { missing.contains($0) }.count
            return TaskNamer.Report(answers: .init(fetched: ids.count - notFound, notFound: notFound))
        }
        var count: Int { asked.withLock { $0.count } }
    }

    static func namer(_ fetches: Fetches, clock: FrozenClock, limits: TaskNamer.Limits = .init()) -> (
        TaskNamer, WorkerPool
    ) {
        let pool = WorkerPool(name: "test-naming", maxWorkers: 2, maxQueued: 16, now: { clock.now.withLock { $0 } })
        let namer = TaskNamer(
            limits: limits, pool: pool, now: { clock.now.withLock { $0 } }, fetch: { fetches.fetch($0) })
        return (namer, pool)
    }

    /// Waits until the pool has nothing queued or running (the namer parked on its bucket).
    static func settle(_ pool: WorkerPool) -> Bool {
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            if !pool.isBusy(TaskNamer.jobKey) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    @Test func aFloodOfUnknownIdsCostsTheBurstWhileTheClockStands() throws {
        let clock = FrozenClock()
        let fetches = Fetches()
        var limits = TaskNamer.Limits()
        limits.perSecond = 0
        let (namer, pool) = Self.namer(fetches, clock: clock, limits: limits)
        defer { pool.stop(timeout: 1) }
        for chunk in stride(from: 0, to: 100_000, by: 1_000) {
            namer.note((chunk..<chunk + 1_000).map { "task-\($0)" })
        }
        #expect(Self.settle(pool))
        #expect(fetches.count == limits.burst)
        let stats = namer.stats
        #expect(stats.asked == limits.burst)
        // Every id is counted once: asked, waiting (at most the queue's bound) or dropped.
        #expect(stats.pending <= limits.maxPending)
        #expect(stats.asked + stats.pending + stats.dropped == 100_000)
        #expect(stats.dropped >= 100_000 - limits.maxPending - limits.burst)
        // The newest waited: the last id noted is among those asked or waiting.
        #expect(fetches.asked.withLock { $0.contains("task-99999") } || stats.pending > 0)
    }

    @Test func theBucketRefillsAtItsRateAndEachIdIsAskedOnce() throws {
        let clock = FrozenClock()
        let fetches = Fetches()
        var limits = TaskNamer.Limits()
        limits.burst = 2
        limits.perSecond = 1
        let (namer, pool) = Self.namer(fetches, clock: clock, limits: limits)
        defer { pool.stop(timeout: 1) }
        let ids = (0..<5).map { "t\($0)" }
        namer.note(ids + ids)
        // The first two at once; the rest wait for the clock (the job is due one second on).
        let waitEnd = Date().addingTimeInterval(10)
        while fetches.count < 2 && Date() < waitEnd { Thread.sleep(forTimeInterval: 0.01) }
        #expect(fetches.count == 2)
        for _ in 0..<3 {
            clock.advance(1)
            namer.note(ids)  // named again: nothing new is queued, the waiting job runs
            let before = fetches.count
            let end = Date().addingTimeInterval(10)
            while fetches.count == before && Date() < end { Thread.sleep(forTimeInterval: 0.01) }
        }
        // Newest first: the two named last went first, then one a second.
        #expect(fetches.asked.withLock { $0 } == ["t4", "t3", "t2", "t1", "t0"])
        #expect(namer.stats.queued == ids.count)
    }

    @Test func anIdTheServerHasNotIsRememberedNotAskedAgain() throws {
        let clock = FrozenClock()
        let fetches = Fetches(missing: ["gone"])
        let (namer, pool) = Self.namer(fetches, clock: clock)
        defer { pool.stop(timeout: 1) }
        namer.note(["gone"])
        let end = Date().addingTimeInterval(10)
        while namer.stats.answers.notFound == 0 && Date() < end { Thread.sleep(forTimeInterval: 0.01) }
        namer.note(["gone", "gone"])
        #expect(Self.settle(pool))
        #expect(fetches.asked.withLock { $0 } == ["gone"])
        #expect(namer.stats.answers.notFound == 1)
    }

    @Test func theBucketNeverHoldsMoreThanItsCapacity() {
        var bucket = TokenBucket(capacity: 3, perSecond: 2, now: Date(timeIntervalSince1970: 0))
        var taken = 0
        while bucket.take(now: Date(timeIntervalSince1970: 0)) { taken += 1 }
        #expect(taken == 3)
        // An hour later: three again, not 7,200.
        taken = 0
        while bucket.take(now: Date(timeIntervalSince1970: 3_600)) { taken += 1 }
        #expect(taken == 3)
        #expect(bucket.wait(now: Date(timeIntervalSince1970: 3_600)) == 0.5)
    }
}
