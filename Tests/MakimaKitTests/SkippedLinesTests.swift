import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// Lines of events left out of the cache are counted, not split: the count must be what
/// splitting them piece by piece (`OutputLineSplit.forEachPiece`, the assembler's rule) gives.
@Suite struct SkippedLinesTests {
    @Test(arguments: ["", "\n", "a", "a\n", "a\nb", "\n\n", "ab\n\ncd", "日本\n語", "x\n\n\n"])
    func aTextsShapeIsWhatSplittingItCalls(text: String) {
        var pieces = 0
        var lastEnded = true
        OutputLineSplit.forEachPiece(of: text) { _, ended in
            pieces += 1
            lastEnded = ended
        }
        let shape = OutputLineSplit.shape(of: text)
        #expect(shape.pieces == pieces)
        #expect(shape.endsOpen == (pieces > 0 && !lastEnded))
    }

    /// The counting before it was arithmetic: every piece of text, one by one.
    struct PieceByPiece {
        var lines = 0
        var trailingOpen = false
        var lastStream = ""

        mutating func add(_ part: TaskLines.Part) {
            switch part {
            case .text(let text, let stream):
                OutputLineSplit.forEachPiece(of: text) { _, newline in
                    if !trailingOpen || !OutputLineSplit.continues(openStream: lastStream, with: stream) {
                        lines += 1
                        trailingOpen = true
                        lastStream = stream
                    }
                    if newline { trailingOpen = false }
                }
            case .end: trailingOpen = false
            case .none: break
            }
        }
    }

    @Test func countsTheLinesSplittingWouldAcrossStreamsEndsAndPieces() {
        var rng = SeededGenerator(state: 24)
        let texts = ["", "\n", "ab", "cd\n", "e\nf", "\n\ng", "h\ni\n", "閉じ\n"]
        for round in 0..<200 {
            var counted = SkippedLines()
            var reference = PieceByPiece()
            for seq in 1...Int(rng.next() % 12 + 1) {
                let part: TaskLines.Part =
                    switch rng.next() % 6 {
                    case 0: .end
                    case 1: .none
                    default:
                        .text(
                            texts[Int(rng.next() % UInt64(texts.count))],
                            stream: rng.next() % 3 == 0 ? "tool" : "assistant")
                    }
                counted.add(seq: seq, part)
                reference.add(part)
            }
            #expect(counted.lines == reference.lines, "round \(round)")
            #expect(counted.trailingOpen == reference.trailingOpen, "round \(round)")
            if reference.lines > 0 { #expect(counted.lastStream == reference.lastStream, "round \(round)") }
        }
    }
}
