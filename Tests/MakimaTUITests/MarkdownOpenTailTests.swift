import Foundation
import MakimaKit
import TestSupport
import Testing

@_spi(Fuzzing) @testable import MakimaTUI

/// Output that never closes a block (a build log with no blank line, one long code block)
/// costs the same per piece after hours as after seconds: an open paragraph or code block is
/// cut at its bound and goes on as the same block (`OutputDocument.Continuation`). Work is
/// counted in bytes handed to the markdown parser (`MarkdownParser.meter`), not in time.
@Suite("Markdown: the open tail's work is bounded")
struct MarkdownOpenTailTests {
    typealias F = MarkdownFixture

    /// `text` cut anywhere into pieces of 1-40 characters (seeded).
    static func pieces(_ text: String, seed: UInt64) -> [String] {
        var rng = SeededGenerator(state: seed)
        let characters = Array(text)
        var out: [String] = []
        var i = 0
        while i < characters.count {
            let k = 1 + Int(rng.next() % 40)
            out.append(String(characters[i..<min(characters.count, i + k)]))
            i += k
        }
        return out
    }

    /// The lines as a view streaming `pieces` shows them at the end, a frame taken after every
    /// `frameEvery` pieces (the document settles between frames).
    static func streamed(_ pieces: [String], frameEvery: Int = 1) -> [RenderedLine] {
        var buffer = TaskOutputBuffer(capacity: 100_000)
        var conv = TaskOutputLines()
        var last: [RenderedLine] = []
        for (n, piece) in pieces.enumerated() {
            buffer.append([F.output(n + 1, piece)])
            if n % frameEvery == 0 { last = conv.lines(of: buffer) }
        }
        return conv.lines(of: buffer).isEmpty ? last : conv.lines(of: buffer)
    }

    static func log(_ n: Int) -> String {
        (0..<n).map { "[\(String(format: "%06d", $0))] Compiling module \($0 % 17) in 0.\($0 % 9)s\n" }.joined()
    }

    static func code(_ n: Int) -> String {
        "```swift\n" + (0..<n).map { "    let value\($0) = compute(\($0 % 97)) // step \($0)\n" }.joined()
    }

    @Test("a log with no blank line reads line for line, the same streamed in 1-40-character pieces as whole")
    func longParagraphStreamsAsWhole() {
        let text = Self.log(1_000)
        let whole = F.lines([F.output(1, text)])
        #expect(whole.map(\.text) == text.split(separator: "\n").map(String.init))
        for (seed, every) in [(1 as UInt64, 1), (2, 7), (3, 50)] {
            #expect(Self.streamed(Self.pieces(text, seed: seed), frameEvery: every) == whole, "seed \(seed)")
        }
    }

    @Test("a code block of 1,000 lines stays one block (one number, one top and one bottom edge), streamed or whole")
    func longCodeBlockStaysOneBlock() {
        let text = Self.code(1_000) + "```\n\nafter\n"
        let whole = F.lines([F.output(1, text)])
        let code = whole.filter { $0.codeBlock != nil }
        #expect(Set(code.map(\.codeBlock)) == [1])
        #expect(code.filter { $0.fill != nil }.count == 2)
        #expect(
            code.filter { $0.fill == nil }.map { $0.content.text.trimmingCharacters(in: .whitespaces) }.first
                == "let value0 = compute(0) // step 0")
        #expect(code.filter { $0.fill == nil }.count == 1_000)
        #expect(whole.last?.text == "after")
        #expect(Self.streamed(Self.pieces(text, seed: 4), frameEvery: 3) == whole)
    }

    @Test("a code block cut at its bound and closed right there by other output keeps its bottom edge")
    func codeCutThenClosedHasItsEdges() {
        for n in (OutputDocument.maximumOpenCodeLines - 2)...(OutputDocument.maximumOpenCodeLines + 1) {
            let events = [F.output(1, Self.code(n)), F.output(2, "$ make\n", stream: "tool")]
            let code = F.lines(events).filter { $0.codeBlock != nil }
            #expect(code.filter { $0.fill != nil }.count == 2, "\(n) lines")
            #expect(code.filter { $0.fill == nil }.count == n, "\(n) lines")
        }
    }

    /// Bytes parsed for one more piece of `text`'s stream once `before` lines have streamed.
    static func workOfOnePiece(_ text: String, before: Int) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" }
        var buffer = TaskOutputBuffer(capacity: 2_000)
        var conv = TaskOutputLines()
        for (n, line) in lines.prefix(before).enumerated() {
            buffer.append([F.output(n + 1, String(line))])
            if n % 100 == 0 { _ = conv.lines(of: buffer) }
        }
        _ = conv.lines(of: buffer)
        let meter = ParseMeter()
        MarkdownParser.$meter.withValue(meter) {
            buffer.append([F.output(before + 1, String(lines[before].prefix(20)))])
            _ = conv.lines(of: buffer)
            buffer.append([F.output(before + 2, String(lines[before].dropFirst(20)))])
            _ = conv.lines(of: buffer)
        }
        return meter.bytes
    }

    @Test("one more piece parses no more after 20,000 lines than after 1,000: a log and a code block")
    func onePieceCostsTheSameLate() {
        for text in [Self.log(20_001), Self.code(20_001)] {
            let early = Self.workOfOnePiece(text, before: 1_000)
            let late = Self.workOfOnePiece(text, before: 20_000)
            // At most the open block's bound, parsed a few times (settle, the cut, the frame).
            let bound = 4 * (OutputDocument.maximumOpenCodeLines + 2) * 60
            #expect(early > 0 && early <= bound, "early \(early)")
            #expect(late > 0 && late <= bound, "late \(late)")
        }
    }

    /// Bytes parsed while `text` streams in line by line, with a frame every `frameEvery` lines.
    static func workOfStream(_ text: String, frameEvery: Int) -> Int {
        let lines = text.split(separator: "\n").map { $0 + "\n" }
        var buffer = TaskOutputBuffer(capacity: 2_000)
        var conv = TaskOutputLines()
        let meter = ParseMeter()
        MarkdownParser.$meter.withValue(meter) {
            for (n, line) in lines.enumerated() {
                buffer.append([F.output(n + 1, String(line))])
                if n % frameEvery == 0 { _ = conv.lines(of: buffer) }
            }
            _ = conv.lines(of: buffer)
        }
        return meter.bytes
    }

    @Test("a unit no cut can end (a list of 500 items) is parsed a bounded number of times, not twice a line")
    func uncuttableTailIsNotParsedOnEveryLine() {
        let list = (0..<500).map { "- item \($0) of a list that no blank line ends\n" }.joined()
        // Looked at on each line up to the code bound, then every `boundCheckEvery`: 2 × 17
        // parses of some 56 lines and 2 × 27 of some 290, and a frame's; on every line it was
        // 2 × 452 parses of some 270 lines, 11.1 MB.
        let parsed = Self.workOfStream(list, frameEvery: 1_000)
        #expect(parsed <= 40 * list.utf8.count, "\(parsed) bytes parsed for \(list.utf8.count)")
        #expect(F.lines([F.output(1, list)]).filter { $0.text.contains("item ") }.count == 500)
    }
}
