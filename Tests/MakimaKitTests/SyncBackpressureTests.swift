import Foundation
import Synchronization
import Testing

@testable import MakimaKit

/// The queues between the WebSocket thread and its consumers are bounded: a producer faster
/// than the consumer waits instead of growing memory, and nothing is lost or reordered.
@Suite struct SyncBackpressureTests {
    static func events(_ range: Range<Int>) -> [TaskEvent] {
        range.map {
            TaskEvent(
                eventID: Int64($0), taskID: "t", seq: $0 + 1, type: .output,
                payload: .output(text: "\($0)\n", stream: "assistant"))
        }
    }

    @Test func outboxProducerWaitsForTheConsumerAtTheBound() async throws {
        let outbox = SyncOutbox(maxPendingEvents: 250)
        let posted = Atomic<Int>(0)
        let producer = Thread {
            for batch in 0..<10 {
                outbox.post(.events(Self.events(batch * 100..<(batch + 1) * 100)))
                posted.add(100, ordering: .sequentiallyConsistent)
            }
        }
        producer.start()
        // Three batches fit under the bound of 250 (the third one reaches it); the fourth waits.
        #expect(await within(15) { posted.load(ordering: .sequentiallyConsistent) == 300 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(posted.load(ordering: .sequentiallyConsistent) == 300)

        var received: [Int] = []
        let deadline = Date().addingTimeInterval(30)
        while received.count < 1_000 && Date() < deadline {
            for case .events(let list) in outbox.wait(until: Date().addingTimeInterval(1)) {
                #expect(list.count <= 300)
                received += list.map(\.seq)
            }
        }
        #expect(received == Array(1...1_000))
    }

    /// A stopped engine's outbox is drained by nobody: a producer waiting on its bound returns
    /// once it is closed (its thread ends instead of waiting forever), and later posts are
    /// dropped; what was posted before stays.
    @Test func aClosedOutboxReleasesItsProducers() async throws {
        let outbox = SyncOutbox(maxPendingEvents: 100)
        let firstPosted = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
        let producer = Thread {
            outbox.post(.events(Self.events(0..<100)))
            firstPosted.store(true, ordering: .sequentiallyConsistent)
            outbox.post(.events(Self.events(100..<200)))  // over the bound: waits
            finished.store(true, ordering: .sequentiallyConsistent)
        }
        producer.start()
        #expect(await within(15) { firstPosted.load(ordering: .sequentiallyConsistent) })
        outbox.close()
        #expect(await within(15) { finished.load(ordering: .sequentiallyConsistent) })
        outbox.post(.notice("after close"))
        let left = outbox.drain()
        #expect(left.count == 1)
        guard case .events(let list) = left.first else {
            Issue.record("what was posted before the close is gone: \(left)")
            return
        }
        #expect(list.map(\.seq) == Array(1...100))
    }

    @Test func cacheWriterQueueIsBounded() async throws {
        let gate = Mutex(false)
        let written = Mutex<[Int]>([])
        let writer = BatchWriter<Int>(name: "bound-test", maxBatch: 10, maxQueued: 50) { batch in
            while !gate.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
            written.withLock { $0 += batch }
        }
        let enqueued = Atomic<Int>(0)
        let producer = Thread {
            for i in 0..<20 {
                writer.enqueue(Array(i * 10..<(i + 1) * 10))
                enqueued.add(10, ordering: .sequentiallyConsistent)
            }
        }
        producer.start()
        // One batch is being written (blocked), at most 50 wait: the producer stops at 60.
        #expect(await within(15) { enqueued.load(ordering: .sequentiallyConsistent) == 60 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(enqueued.load(ordering: .sequentiallyConsistent) == 60)
        gate.withLock { $0 = true }
        #expect(await within(15) { enqueued.load(ordering: .sequentiallyConsistent) == 200 })
        writer.stop()
        #expect(written.withLock { $0 } == Array(0..<200))
    }
}

/// Polls `condition` every 10 ms until it holds or `seconds` pass.
private func within(_ seconds: TimeInterval, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
