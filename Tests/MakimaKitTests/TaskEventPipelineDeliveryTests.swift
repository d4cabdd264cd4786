import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// Batches reach the outbox in the order they were sequenced, and no lock is held while one
/// waits for a full outbox: producers behind it wait for their turn, not on a lock.
@Suite struct TaskEventPipelineDeliveryTests {
    /// Waits (a failsafe, not a timing) until `condition` holds.
    static func wait(_ condition: () -> Bool) -> Bool { TaskEventPipelineHardeningTests.wait(condition) }

    /// A pipeline whose applied events go to `outbox`, replaying with a clock that never
    /// moves: a gap waits for the replay, never for a fill, so only the producers' frames apply.
    static func pipeline(into outbox: SyncOutbox, entered: Locked<Int>? = nil) -> TaskEventPipeline {
        let start = Date()
        let pipeline = TaskEventPipeline(
            lastSeen: [:], fetchPage: { _, _, _ in throw APIError.transport("no fills here") },
            onApplied: { events in
                entered?.withLock { $0 += 1 }
                outbox.post(.events(events))
            },
            now: { start })
        _ = pipeline.resyncRequest()
        return pipeline
    }

    /// Takes the outbox's events as its consumer until `count` came (or a failsafe deadline).
    static func consume(_ outbox: SyncOutbox, count: Int) -> [Int] {
        var seqs: [Int] = []
        let deadline = Date().addingTimeInterval(60)
        while seqs.count < count && Date() < deadline {
            for case .events(let list) in outbox.wait(until: Date().addingTimeInterval(1)) { seqs += list.map(\.seq) }
        }
        return seqs
    }

    static func start(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        group.enter()
        Thread {
            body()
            group.leave()
        }.start()
        return group
    }

    /// Two producers (the odd seqs of a task from one thread, the even from another), one
    /// frame a call, into an outbox of one pending event: every post but the first waits for
    /// the consumer. Whatever the interleaving, the consumer sees 1…400 in order, and both
    /// producers end.
    @Test func twoProducersIntoAFullOutboxKeepTheOrderAndBothEnd() {
        let outbox = SyncOutbox(maxPendingEvents: 1)
        let pipeline = Self.pipeline(into: outbox)
        let n = 400
        let odd = Self.start {
            for seq in stride(from: 1, through: n, by: 2) { pipeline.receive(frame: frame(outputEvent("t", seq))) }
        }
        let even = Self.start {
            for seq in stride(from: 2, through: n, by: 2) { pipeline.receive(frame: frame(outputEvent("t", seq))) }
        }
        let seqs = Self.consume(outbox, count: n)
        #expect(seqs == Array(1...n))
        #expect(odd.wait(timeout: .now() + 60) == .success)
        #expect(even.wait(timeout: .now() + 60) == .success)
        #expect(pipeline.counters.eventsApplied == n)
        #expect(pipeline.deliveriesOutstanding == 0)
        pipeline.stop()
    }

    /// While the first batch's delivery waits for a full outbox, a second producer's batch is
    /// still sequenced (the pipeline's lock is free) and waits for its turn; the consumer then
    /// gets them in their order.
    @Test func aDeliveryWaitingForTheOutboxHoldsNoLock() {
        let outbox = SyncOutbox(maxPendingEvents: 1)
        outbox.post(.events([outputEvent("other", 1)]))  // full
        let entered = Locked(0)
        let pipeline = Self.pipeline(into: outbox, entered: entered)
        let first = Self.start { pipeline.receive(frame: frame(outputEvent("t", 1))) }
        // The first batch is in `onApplied`, posting into the full outbox: it waits there.
        #expect(Self.wait { entered.withLock { $0 } == 1 })
        let second = Self.start { pipeline.receive(frame: frame(outputEvent("t", 2))) }
        #expect(Self.wait { pipeline.counters.eventsApplied == 2 })
        #expect(Self.wait { pipeline.deliveriesOutstanding == 2 })
        // Readers of the state are not held up either.
        #expect(pipeline.lastSeen["t"] == 2)
        #expect(entered.withLock { $0 } == 1, "the second waits for its turn")
        #expect(Self.consume(outbox, count: 3) == [1, 1, 2])
        #expect(first.wait(timeout: .now() + 60) == .success)
        #expect(second.wait(timeout: .now() + 60) == .success)
        #expect(pipeline.deliveriesOutstanding == 0)
        pipeline.stop()
    }

    /// Tickets are served in the order they were issued, whichever thread comes first.
    @Test func turnsAreServedInTicketOrder() {
        let turns = DeliveryTurns(maxWaiting: 8)
        let order = Recorder<UInt64>()
        let tickets = (0..<5).map { _ -> UInt64 in
            turns.admit()
            return turns.issue()
        }
        // The last ticket's thread starts first: it must wait for all the others.
        let groups = tickets.reversed().map { ticket in Self.start { turns.deliver(ticket) { order.add(ticket) } } }
        for group in groups { #expect(group.wait(timeout: .now() + 60) == .success) }
        #expect(order.all == tickets)
        #expect(turns.outstanding == 0)
    }

    /// Past `maxWaiting` a caller waits in `admit` until a place is given back.
    @Test func admissionIsBounded() {
        let turns = DeliveryTurns(maxWaiting: 1)
        let order = Recorder<String>()
        turns.admit()
        let ticket = turns.issue()
        let late = Self.start {
            turns.admit()
            order.add("admitted")
            turns.withdraw()
        }
        order.add("delivering")
        turns.deliver(ticket) {}
        #expect(late.wait(timeout: .now() + 60) == .success)
        #expect(order.all == ["delivering", "admitted"])
    }
}
