import Foundation
import Testing

@testable import MakimaKit

@Suite struct WorkerPoolTests {
    func wait(_ timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > end { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    @Test func neverMoreThreadsThanItsBoundAndEveryJobRuns() {
        let pool = WorkerPool(name: "test-pool", maxWorkers: 3, maxQueued: 1_000)
        let running = Locked((now: 0, peak: 0, done: 0))
        for i in 0..<200 {
            pool.submit(key: "job \(i)") {
                running.withLock {
                    $0.now += 1
                    $0.peak = max($0.peak, $0.now)
                }
                Thread.sleep(forTimeInterval: 0.001)
                running.withLock {
                    $0.now -= 1
                    $0.done += 1
                }
            }
        }
        #expect(wait { running.withLock { $0.done } == 200 })
        #expect(running.withLock { $0.peak } <= 3)
        #expect(pool.currentStats.peakWorkers <= 3)
        #expect(wait { pool.workerCount == 0 }, "idle workers end")
    }

    @Test func aKeyQueuedTwiceRunsOnceAndAFullQueueRefuses() {
        let pool = WorkerPool(name: "test-pool", maxWorkers: 1, maxQueued: 2)
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let ran = Recorder<String>()
        pool.submit(key: "blocker") {
            started.signal()
            _ = gate.wait(timeout: .now() + 30)
        }
        #expect(started.wait(timeout: .now() + 30) == .success)
        #expect(pool.submit(key: "a") { ran.add("a1") })
        #expect(pool.submit(key: "a") { ran.add("a2") })  // replaces the queued one
        #expect(pool.submit(key: "b") { ran.add("b") })
        #expect(!pool.submit(key: "c") { ran.add("c") }, "a and b queued: full at 2")
        gate.signal()
        #expect(wait { ran.all.count == 2 })
        #expect(Set(ran.all) == ["a2", "b"])
        #expect(pool.currentStats.refused == 1)
    }

    @Test func aDelayedJobWaitsWithoutBlockingOthersAndPriorityGoesFirst() {
        let pool = WorkerPool(name: "test-pool", maxWorkers: 1, maxQueued: 10)
        let order = Recorder<String>()
        let start = Date()
        let late = Locked<TimeInterval>(0)
        pool.submit(key: "late", after: 0.3) { late.withLock { $0 = Date().timeIntervalSince(start) } }
        pool.submit(key: "now") { order.add("now") }
        #expect(wait { order.all == ["now"] })
        #expect(wait { late.withLock { $0 } > 0 })
        #expect(late.withLock { $0 } >= 0.29)

        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        pool.submit(key: "blocker") {
            started.signal()
            _ = gate.wait(timeout: .now() + 30)
        }
        #expect(started.wait(timeout: .now() + 30) == .success)
        pool.submit(key: "low") { order.add("low") }
        pool.submit(key: "high", priority: 1) { order.add("high") }
        gate.signal()
        #expect(wait { order.all.count == 3 })
        #expect(order.all == ["now", "high", "low"])
    }

    @Test func stopDropsWhatIsQueuedAndRefusesMore() {
        let pool = WorkerPool(name: "test-pool", maxWorkers: 1, maxQueued: 10)
        let ran = Recorder<String>()
        pool.submit(key: "later", after: 30) { ran.add("later") }
        #expect(pool.stop(timeout: 10))
        #expect(!pool.submit(key: "after stop") { ran.add("x") })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(ran.all.isEmpty)
        #expect(pool.workerCount == 0)
    }
}
