import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// A batch holding more lines than the bound: the lines it pushes out are counted, not made.
/// The buffer must come out the same as when every line is made and then trimmed.
@Suite struct TaskOutputBufferBurstTests {
    /// Output cut anywhere (1–40 characters, newlines inside pieces or not), two streams, and
    /// now and then a status, a gate or a question, in batches of random sizes.
    func randomEvents(_ count: Int, from seq: Int, using rng: inout some RandomNumberGenerator) -> [TaskEvent] {
        let alphabet = Array("abc def\n\n\nxyz é\n")
        return (0..<count).map { k in
            let s = seq + k
            switch Int.random(in: 0..<40, using: &rng) {
            case 0:
                return TaskEvent(
                    eventID: Int64(s), taskID: "t", seq: s, type: .status,
                    payload: .status(status: .running, previous: nil, reason: "r\(s)"))
            case 1:
                return TaskEvent(
                    eventID: Int64(s), taskID: "t", seq: s, type: .completionGate,
                    payload: .completionGate(ready: true, summary: "done \(s)", body: "b"))
            case 2:
                return TaskEvent(
                    eventID: Int64(s), taskID: "t", seq: s, type: .supervisorQuestion,
                    payload: .supervisorQuestion(questionID: "q\(s)", text: "why \(s)?", directiveID: nil))
            default:
                let n = Int.random(in: 1...40, using: &rng)
                let text = String((0..<n).map { _ in alphabet.randomElement(using: &rng)! })
                let stream = Int.random(in: 0..<6, using: &rng) == 0 ? "tool" : "assistant"
                return TaskEvent(
                    eventID: Int64(s), taskID: "t", seq: s, type: .output, payload: .output(text: text, stream: stream))
            }
        }
    }

    @Test(arguments: [1, 5, 17, 64])
    func passingOverGivesTheSameBuffer(capacity: Int) {
        var rng = SeededGenerator(state: UInt64(capacity))
        for _ in 0..<40 {
            var made = TaskOutputBuffer(capacity: capacity)
            var passed = TaskOutputBuffer(capacity: capacity)
            var seq = 1
            for _ in 0..<6 {
                let batch = randomEvents(Int.random(in: 1...400, using: &rng), from: seq, using: &rng)
                seq += batch.count
                made.append(batch, passingOverHidden: false)
                passed.append(batch, passingOverHidden: true)
                #expect(passed == made)
            }
        }
    }

    @Test func aBurstMakesOnlyTheLinesItKeeps() {
        var b = TaskOutputBuffer(capacity: 3)
        b.append([outputEvent("t", 1, "kept before\n")])
        b.append((2...1000).map { outputEvent("t", $0, "line \($0)\n") } + [outputEvent("t", 1001, "open ")])
        #expect(b.lines.map(\.text) == ["line 999", "line 1000"])
        #expect(b.openLine?.text == "open ")
        #expect(b.droppedLines == 998)
        #expect(b.coveredFrom == nil)
    }

    @Test func anOpenLineCarriedAcrossTheHiddenPartIsWhole() {
        var b = TaskOutputBuffer(capacity: 2)
        b.append(
            (1...50).map { outputEvent("t", $0, "x\n") } + [
                outputEvent("t", 51, "start of "), outputEvent("t", 52, "it\nA\nB\n"),
            ]
        )
        #expect(b.lines.map(\.text) == ["A", "B"])
        b = TaskOutputBuffer(capacity: 3)
        b.append(
            (1...50).map { outputEvent("t", $0, "x\n") } + [
                outputEvent("t", 51, "start of "), outputEvent("t", 52, "it\nA\nB\n"),
            ]
        )
        #expect(b.lines.map(\.text) == ["start of it", "A", "B"])
    }

    @Test func aBatchOutOfOrderIsAppliedEventByEvent() {
        var b = TaskOutputBuffer(capacity: 2)
        b.append([outputEvent("t", 5, "five\n")])
        // Seqs at or below what is held are skipped one by one; the count of what is kept must
        // not include them.
        b.append([outputEvent("t", 3, "a\nb\nc\n"), outputEvent("t", 6, "six\n")])
        #expect(b.lines.map(\.text) == ["five", "six"])
    }
}
