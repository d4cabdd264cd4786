import Foundation
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

    @Test func skippingAnUnfillableGapCountsTheLoss() {
        var s = TaskEventSequencer()
        _ = s.accept(outputEvent("t", 5))
        _ = s.accept(outputEvent("t", 6))
        #expect(s.skipGap("t") == .applied([outputEvent("t", 5), outputEvent("t", 6)]))
        #expect(s.declaredLost == 4)
        #expect(s.lastApplied["t"] == 6)
    }
}
