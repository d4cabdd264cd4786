import Foundation
import TestSupport
import Testing

@testable import MakimaKit

func outputEvent(_ task: String, _ seq: Int, _ text: String = "x", eventID: Int64? = nil, ts: Date? = nil) -> TaskEvent
{
    TaskEvent(
        eventID: eventID ?? Int64(seq), taskID: task, seq: seq, type: .output, ts: ts,
        payload: .output(text: text, stream: "assistant"))
}

@Suite struct TaskEventSequencerTests {
    @Test func appliesInOrderAndDropsDuplicates() {
        var s = TaskEventSequencer()
        #expect(s.accept(outputEvent("t", 1)) == .applied([outputEvent("t", 1)]))
        #expect(s.accept(outputEvent("t", 1)) == .duplicate)
        #expect(s.accept(outputEvent("t", 2)) == .applied([outputEvent("t", 2)]))
        #expect(s.lastApplied["t"] == 2)
    }

    /// A socket read whose events each continue their task is applied whole; anything else
    /// (a gap, a duplicate, an absurd seq, a gap open elsewhere) changes nothing and is left to
    /// the event-by-event path.
    @Test func aBatchInOrderIsAppliedWholeAnythingElseLeftAlone() {
        var s = TaskEventSequencer(lastApplied: ["a": 4])
        // Two tasks interleaved; "a" met again continues where its first run ended.
        let run = [5, 6].map { outputEvent("a", $0) } + [1, 2].map { outputEvent("b", $0) } + [outputEvent("a", 7)]
        let applied = s.acceptInOrder(run)
        #expect(applied)
        #expect(s.lastApplied == ["a": 7, "b": 2])
        let refused: [[TaskEvent]] = [
            [outputEvent("a", 8), outputEvent("a", 10)], [outputEvent("a", 7)],
            [outputEvent("b", 3), outputEvent("a", 8), outputEvent("a", 8)], [outputEvent("c", 1 << 60)], [],
        ]
        for batch in refused {
            let taken = s.acceptInOrder(batch)
            #expect(!taken, "\(batch.map(\.seq))")
        }
        #expect(s.lastApplied == ["a": 7, "b": 2])
        // While a task holds events behind a gap, every batch goes event by event.
        #expect(s.accept(outputEvent("b", 5)) == .held(missing: 3...4))
        let whileHeld = s.acceptInOrder([outputEvent("a", 8)])
        #expect(!whileHeld)
        #expect(s.lastApplied == ["a": 7, "b": 2])
    }

    @Test func holdsAcrossAHoleAndReleasesWhenFilled() {
        var s = TaskEventSequencer(lastApplied: ["t": 3])
        #expect(s.accept(outputEvent("t", 6)) == .held(missing: 4...5))
        #expect(s.accept(outputEvent("t", 7)) == .held(missing: 4...5))
        #expect(s.accept(outputEvent("t", 6)) == .duplicate)
        #expect(s.missingRange(for: "t") == 4...5)
        #expect(s.accept(outputEvent("t", 4)) == .applied([outputEvent("t", 4)]))
        #expect(s.missingRange(for: "t") == 5...5)
        #expect(s.accept(outputEvent("t", 5)) == .applied([5, 6, 7].map { outputEvent("t", $0) }))
        #expect(s.missingRange(for: "t") == nil)
        #expect(s.tasksWithGaps.isEmpty)
        #expect(s.lastApplied["t"] == 7)
    }

    @Test func anyArrivalOrderYieldsTheSameHistory() {
        var rng = SeededGenerator(state: 42)
        let truth = (1...300).map { outputEvent("a", $0) } + (1...200).map { outputEvent("b", $0) }
        // Every event at least once, many twice, all shuffled.
        var arrivals = truth + truth.filter { _ in rng.next() % 3 == 0 }
        arrivals.shuffle(using: &rng)
        var s = TaskEventSequencer()
        var history: [String: [Int]] = [:]
        for e in arrivals {
            if case .applied(let list) = s.accept(e) { for a in list { history[a.taskID, default: []].append(a.seq) } }
        }
        #expect(history["a"] == Array(1...300))
        #expect(history["b"] == Array(1...200))
    }

    @Test func aPageStartingAboveTheGapDeclaresTheRestLost() {
        var s = TaskEventSequencer()
        _ = s.accept(outputEvent("t", 9))
        // The server no longer has 1...4: its page after 0 starts at 5.
        let (applied, lost) = s.acceptPage(task: "t", after: 0, events: (5...8).map { outputEvent("t", $0) })
        #expect(applied.map(\.seq) == [5, 6, 7, 8, 9])
        #expect(lost == 4)
        #expect(s.declaredLost == 4)
        #expect(s.lastApplied["t"] == 9)
        #expect(s.tasksWithGaps.isEmpty)
    }

    /// One frame with seq Int.max for an unknown task used to trap (`next += 1`); absurd seqs
    /// are protocol errors now, skipped and counted, wherever they arrive.
    @Test func absurdSeqsAreRejectedNeverTrapped() {
        var s = TaskEventSequencer()
        #expect(s.accept(outputEvent("t", Int.max)) == .rejected)
        #expect(s.accept(outputEvent("t", TaskEventSequencer.maxSeq + 1)) == .rejected)
        #expect(s.accept(outputEvent("t", 0)) == .rejected)
        #expect(s.accept(outputEvent("t", -5)) == .rejected)
        #expect(s.rejected == 4)
        #expect(s.tasksWithGaps.isEmpty)
        let page = s.acceptPage(
            task: "t", after: 0, events: [outputEvent("t", Int.max), outputEvent("t", Int.max - 1)])
        #expect(page.applied.isEmpty && page.lost == 0)
        #expect(s.rejected == 6)
        // The task still streams normally afterwards.
        #expect(s.accept(outputEvent("t", 1)) == .applied([outputEvent("t", 1)]))
        // The largest seq taken seriously applies, and the next one is simply absurd.
        var edge = TaskEventSequencer(lastApplied: ["e": TaskEventSequencer.maxSeq - 1])
        #expect(
            edge.accept(outputEvent("e", TaskEventSequencer.maxSeq))
                == .applied([outputEvent("e", TaskEventSequencer.maxSeq)]))
        #expect(edge.accept(outputEvent("e", TaskEventSequencer.maxSeq + 1)) == .rejected)
    }

    @Test func absurdMarksFromAnOldCacheStartTheTaskOver() {
        var s = TaskEventSequencer(lastApplied: ["bad": Int.max, "neg": -3, "ok": 7])
        #expect(s.lastApplied == ["ok": 7])
        #expect(s.accept(outputEvent("bad", 1)) == .applied([outputEvent("bad", 1)]))
    }

    /// A huge (but not absurd) seq the server's REST does not know is forgotten, not applied:
    /// it must not push the task's mark up so that every real event looks like a duplicate.
    @Test func aSeqTheServerDeniesIsForgottenNotApplied() {
        var s = TaskEventSequencer(lastApplied: ["t": 3])
        #expect(s.accept(outputEvent("t", 1 << 50)) == .held(missing: 4...((1 << 50) - 1)))
        s.forget("t", upTo: 1 << 50)
        #expect(s.tasksWithGaps.isEmpty)
        #expect(s.heldCount == 0)
        #expect(s.accept(outputEvent("t", 4)) == .applied([outputEvent("t", 4)]))
    }

    @Test func heldEventsAreBoundedPerTaskAndInTotalAndTheGapIsKept() {
        var s = TaskEventSequencer(maxHeldPerTask: 100, maxHeldTotal: 250)
        for seq in 2...501 { _ = s.accept(outputEvent("a", seq)) }
        #expect(s.heldCount <= 100)
        #expect(s.heldDropped >= 400)
        // The lowest held stay (the fill reaches them first); the gap still reaches the top.
        #expect(s.missingRange(for: "a") == 1...1)
        #expect(s.highestWanted(for: "a") == 501)
        for task in ["b", "c", "d", "e"] { for seq in 2...101 { _ = s.accept(outputEvent(task, seq)) } }
        #expect(s.heldCount <= 250)
        var bytes = TaskEventSequencer(maxHeldBytes: 64 << 10)
        let big = String(repeating: "x", count: 4_096)
        for seq in 2...200 { _ = bytes.accept(outputEvent("t", seq, big)) }
        // Each held event is more than its 4 KB of text: at most 16 fit in 64 KB.
        #expect(bytes.heldCount <= (64 << 10) / big.utf8.count)
        #expect(bytes.heldDropped > 0)
        // Once the hole is filled, what is held applies and the rest stays a gap to fetch.
        var applied: [Int] = []
        if case .applied(let list) = s.accept(outputEvent("a", 1)) { applied = list.map(\.seq) }
        #expect(applied.first == 1 && applied == Array(1...applied.count))
        #expect(s.missingRange(for: "a") == (applied.count + 1)...501)
    }

    @Test func releasedHeldEventsKeepTheirGapForTheFill() {
        var s = TaskEventSequencer()
        for seq in 3...5 { _ = s.accept(outputEvent("t", seq)) }
        s.releaseHeld("t")
        #expect(s.heldCount == 0)
        #expect(s.heldDropped == 3)
        #expect(s.missingRange(for: "t") == 1...5)
        let page = s.acceptPage(task: "t", after: 0, events: (1...5).map { outputEvent("t", $0) })
        #expect(page.applied.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(s.tasksWithGaps.isEmpty)
    }

    /// Found by the sequencer fuzz target: a page that skips lost seqs up to an event already
    /// held left that copy held under the mark; the next held event then asked for the gap
    /// `mark+1...held-1` with its ends crossed and trapped.
    @Test func aPageSkippingToAHeldEventAppliesIt() {
        var s = TaskEventSequencer()
        #expect(s.accept(outputEvent("t", 11)) == .held(missing: 1...10))
        let (applied, lost) = s.acceptPage(task: "t", after: 0, events: [11, 14, 16].map { outputEvent("t", $0) })
        #expect(lost == 10)
        #expect(applied.map(\.seq) == [11])
        #expect(s.missingRange(for: "t") == 12...13)
        #expect(s.accept(outputEvent("t", 15)) == .held(missing: 12...13))
        #expect(s.accept(outputEvent("t", 12)) == .applied([outputEvent("t", 12)]))
        #expect(s.heldCount == 3)
    }
}
