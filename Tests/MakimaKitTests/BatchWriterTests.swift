import Foundation
import Testing

@testable import MakimaKit

@Suite struct BatchWriterTests {
    @Test func writesEverythingInOrderInBoundedBatches() {
        let written = Locked([Int]())
        let batches = Locked([Int]())
        let w = BatchWriter<Int>(name: "test-writer", maxBatch: 100) { batch in
            batches.withLock { $0.append(batch.count) }
            written.withLock { $0.append(contentsOf: batch) }
        }
        for chunk in stride(from: 0, to: 10_000, by: 37) { w.enqueue(Array(chunk..<min(chunk + 37, 10_000))) }
        w.flush()
        #expect(written.withLock { $0 } == Array(0..<10_000))
        #expect(batches.withLock { $0.allSatisfy { $0 <= 100 } })
        w.stop()
    }

    /// With a linger, items enqueued one by one wait to be written together; `flush` does not
    /// wait out the linger.
    @Test func aLingeringWriterGathersItemsAndFlushCutsTheWaitShort() {
        let batches = Locked([[Int]]())
        let w = BatchWriter<Int>(name: "linger-writer", maxBatch: 100, linger: 600) { batch in
            batches.withLock { $0.append(batch) }
        }
        for i in 0..<10 { w.enqueue([i]) }
        let started = Date()
        w.flush()
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(batches.withLock { $0 } == [Array(0..<10)])
        w.stop()
    }
}
