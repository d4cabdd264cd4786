import Foundation
import MakimaKit
import Testing

@_spi(Fuzzing) @testable import MakimaTUI

@Suite("Markdown bounds: character references, wide tables, long lines")
struct MarkdownBoundsTests {
    typealias F = MarkdownFixture

    @Test("a character reference that decodes to a control is cleaned like the raw control: the OSC goes whole")
    func characterReferencesAreCleaned() {
        #expect(F.rows("hello &#27;]2;PWNED&#7;") == ["hello"])
        #expect(F.rows("hello &#x1b;]2;PWNED&#x7; world") == ["hello  world"])
        #expect(F.rows("a&#155;2Jb") == ["ab"])
        #expect(F.rows("foo&#10;&#10;bar") == ["foo  bar"])
        #expect(F.rows("&#9;foo") == ["        foo"])
        #expect(
            F.rows("`a&#27;b` [x&#7;y](http://e.example/&#27;[2J \"t&#27;\")") == [
                " a&#27;b  xy[1]", "[1] http://e.example/",
            ])
        for markdown in ["hello &#27;]2;PWNED&#7;", "`x` &#155;31m &#27;[2J", "[a](&#27;) ![b&#7;](c&#155;)"] {
            for line in F.lines([F.output(1, markdown)]) {
                for row in line.rows(width: 60) {
                    #expect(!row.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
                }
            }
        }
    }

    @Test("a table wider than the column bound shows its first columns and says how many more there are")
    func wideTableIsCut() {
        let n = 100
        let table =
            "|" + (1...n).map { "c\($0)|" }.joined() + "\n|" + String(repeating: "-|", count: n) + "\n|"
            + (1...n).map { "\($0)|" }.joined() + "\n"
        let rows = F.lines([F.output(1, table)])
        #expect(rows.count == 3)
        #expect(rows[0].text.contains("c64") && !rows[0].text.contains("c65"))
        #expect(rows[0].text.hasSuffix("… 36 more columns"))
        #expect(rows[2].text.hasSuffix("│ …"))
        let wide = "| a | b |\n|---|---|\n| " + String(repeating: "w", count: 5_000) + " | x |\n"
        let cut = F.lines([F.output(1, wide)])
        #expect(cut.allSatisfy { $0.content.width <= TableRenderer.maximumCellWidth + 10 })
    }

    @Test("a line with more pipes than a table may have columns is plain text, the same streamed or whole")
    func tooManyColumnsIsPlain() {
        let n = 32_000
        let table = "|" + String(repeating: "a|", count: n) + "\n|" + String(repeating: "-|", count: n) + "\n\nafter\n"
        let lines = F.lines([F.output(1, table)])
        #expect(!lines.contains { $0.text.contains("┼") })
        #expect(lines.first?.text.hasPrefix("|a|a|a|") == true)
        #expect(lines.last?.text == "after")
        let chunked = F.lines(
            stride(from: 0, to: table.utf8.count, by: 4_093).enumerated().map { i, start in
                let bytes = Array(table.utf8)[start..<min(table.utf8.count, start + 4_093)]
                return F.output(i + 1, String(decoding: bytes, as: UTF8.self))
            })
        #expect(chunked == lines)
    }

    @Test("a line over the byte bound is drawn cut with a marker; y copies it whole; the open line too")
    func longLineIsCut() {
        let long = String(repeating: "x", count: 100_000)
        let lines = F.lines([F.output(1, long + "\nnext\n")])
        #expect(lines.count == 3)
        #expect(lines[0].content.text.utf8.count < OutputLimits.maximumLineBytes + 100)
        #expect(lines[0].text.hasSuffix("… \(100_000 - OutputLimits.maximumLineBytes) more bytes, y copies the line"))
        #expect(Clipboard.text(of: lines.prefix(1)) == String(long.prefix(Clipboard.maximumBytes)))
        #expect(lines[2].text == "next")
        let open = F.lines([F.output(1, "before\n\n" + long)])
        #expect(open.last?.text.hasSuffix("more bytes, y copies the line") == true)
        let log = F.lines([F.output(1, long + "\n", stream: "tool")])
        #expect(log.count == 1 && log[0].content.text.hasSuffix("more bytes, y copies the line"))
    }

    @Test("a unit over the tail bound is cut at the same line streamed or whole, after the units before it close")
    func tailBoundCutsTheSameWay() {
        let paragraphs = (0..<300).map { "paragraph \($0)\n\n" }.joined()
        let code = "```\n" + (0..<4_200).map { "code line \($0)\n" }.joined() + "```\n\n"
        let list = (0..<600).map { "- item \($0)\n" }.joined()
        let text = paragraphs + code + list
        let whole = F.lines([F.output(1, text)])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 + "\n" }
        let streamed = F.lines(
            stride(from: 0, to: lines.count, by: 97).enumerated().map { n, start in
                F.output(n + 1, lines[start..<min(lines.count, start + 97)].joined())
            })
        #expect(streamed == whole)
        // The code block goes on past its bound as one block; a list is closed at the tail's
        // bound (its first 512 items, give or take the lines between two looks at the bound)
        // and what follows is read afresh, as a new list: one blank line between items.
        #expect(whole.filter { $0.codeBlock == 1 && $0.fill == nil }.count == 4_200)
        #expect(whole.filter { $0.codeBlock != nil && $0.fill != nil }.count == 2)
        let first = whole.firstIndex { $0.text.hasSuffix("item 0") } ?? whole.endIndex
        let breaks = whole[first...].indices.filter { whole[$0] == RenderedLine() }
        #expect(breaks.count == 1)
        let items = (breaks.first ?? first) - first
        #expect(
            (OutputDocument.maximumTailLines..<OutputDocument.maximumTailLines + OutputDocument.boundCheckEvery)
                .contains(items), "closed after \(items) items")
        #expect(whole.filter { $0.text.contains("item ") }.count == 600)
    }

    /// The CommonMark and GFM spec examples (`spec-*` in the markdown fuzz corpus).
    static let specExamples: [String] = {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fuzz/Corpus/markdown").standardized
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { $0.hasPrefix("spec-") }.sorted().compactMap {
            (try? Data(contentsOf: corpus.appendingPathComponent($0))).map { String(decoding: $0, as: UTF8.self) }
        }
    }()

    @Test("every CommonMark and GFM spec example renders the same whole and cut into chunks three ways")
    func specExamplesStreamAsWhole() {
        #expect(Self.specExamples.count > 600)
        for (n, example) in Self.specExamples.enumerated() {
            let whole = F.lines([F.output(1, example)])
            let characters = Array(example)
            // By lines, every 7 characters, and character by character (a third of the
            // examples, for time). The server sends whole characters: cuts fall between them.
            var cuts: [[String]] = [
                example.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 + "\n" },
                stride(from: 0, to: characters.count, by: 7).map {
                    String(characters[$0..<min(characters.count, $0 + 7)])
                },
            ]
            if n % 3 == 0 { cuts.append(characters.map { String($0) }) }
            for (way, text) in cuts.enumerated() {
                let streamed = F.lines(text.enumerated().map { F.output($0.offset + 1, $0.element) })
                #expect(streamed == whole, "spec example \(n), cut \(way): \(example.debugDescription)")
                for line in streamed {
                    for row in line.rows(width: 80) {
                        #expect(
                            !row.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
                    }
                }
            }
        }
    }
}

@Suite("Search over long output: linear, in steps")
struct OutputSearchStepTests {
    @Test("the first update does one step of work; advancing finishes it with every match, columns in cells")
    func searchInSteps() {
        let line = String(repeating: "契約 ", count: 300) + "needle"
        let lines = (0..<2_000).map { RenderedLine(text: $0 % 2 == 0 ? line : "nothing here") }
        var s = OutputSearch()
        s.update(query: "needle", in: lines, fromLine: 10)
        #expect(!s.isComplete)
        #expect(s.position.hasSuffix("…"))
        var steps = 1
        while !s.isComplete {
            s.advance(in: lines)
            steps += 1
        }
        #expect(steps > 5)
        #expect(s.count == 1_000)
        #expect(s.matches.allSatisfy { $0.column == 1_500 && $0.width == 6 })
        #expect(s.currentMatch?.line == 10)
        #expect(s.matches(onLine: 998).map(\.line) == [998])
        #expect(s.matches(onLine: 999).isEmpty)
    }

    @Test("matches in one long line: every one found in one pass, at the right cells, and capped")
    func longLine() {
        let lines = [RenderedLine(text: String(repeating: "ab", count: 60_000))]
        var s = OutputSearch()
        s.update(query: "ba", in: lines)
        while !s.isComplete { s.advance(in: lines) }
        #expect(s.count == 59_999)
        #expect(s.matches[5] == OutputSearch.Match(line: 0, column: 11, width: 2))
        let xs = [RenderedLine(text: String(repeating: "x", count: 150_000))]
        s.update(query: "x", in: xs)
        while !s.isComplete { s.advance(in: xs) }
        #expect(s.count == OutputSearch.maximumMatches)
    }

    @Test("a pane with a search still going asks for frames, and each frame takes it further")
    func paneStepsTheSearch() {
        let lines = (0..<3_000).map { RenderedLine(text: "line \($0) " + String(repeating: "-", count: 200)) }
        var pane = TaskOutputPane(model: TaskOutputViewModel(taskID: "t", title: "T", lines: lines))
        _ = pane.handle(.filter)
        _ = pane.edit(.insert("2"))
        _ = pane.edit(.insert("9"))
        _ = pane.edit(.insert("9"))
        _ = pane.edit(.insert("9"))
        #expect(pane.hasPendingWork)
        var b = CellBuffer(width: 80, height: 20)
        var frames = 0
        while pane.hasPendingWork && frames < 100 {
            pane.render(into: &b, region: b.bounds, context: RenderContext())
            frames += 1
        }
        #expect(!pane.hasPendingWork)
        #expect(pane.search.count == 1 && pane.search.currentMatch?.line == 2_999)
        #expect(pane.footerStatus?.contains("/2999_  1/1") == true)
    }
}
