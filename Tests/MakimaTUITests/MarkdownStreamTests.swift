import Foundation
import MakimaKit
import Testing

@_spi(Fuzzing) @testable import MakimaTUI

@Suite("Task output: cards, and streaming in any chunking")
struct MarkdownStreamTests {
    typealias F = MarkdownFixture

    func event(_ seq: Int, _ type: TaskEventType, _ payload: TaskEventPayload, ts: Date? = nil) -> TaskEvent {
        TaskEvent(eventID: Int64(seq), taskID: "t", seq: seq, type: type, ts: ts, payload: payload)
    }

    @Test("a completion gate in the text and its event make one card: READY in ok, the fields as a table")
    func gateOnce() {
        let body = "<COMPLETION_GATE>\nready: true\nsummary: all green\nfiles_changed: 3\n</COMPLETION_GATE>"
        let lines = F.lines([
            F.output(1, "Wrapping up.\n\n" + body + "\n"),
            event(2, .completionGate, .completionGate(ready: true, summary: "all green", body: body)),
        ])
        let text = lines.map(\.text).joined(separator: "\n")
        #expect(!text.contains("<COMPLETION_GATE>") && !text.contains("ready: true"))
        let cells = F.cells(lines, width: 40)
        let rows = (0..<cells.height).map { cells.trimmedLine($0) }
        #expect(rows.filter { $0.contains("COMPLETION GATE//") }.count == 1)
        #expect(rows.contains("╭┄ COMPLETION GATE// ┄┄┄┄┄┄┄┄┄┄ READY ┄╮"))
        #expect(rows.contains("┆ summary        all green             ┆"))
        #expect(rows.contains("┆ files_changed  3                     ┆"))
        let y = rows.firstIndex { $0.contains("READY") }!
        #expect(cells.style(atX: 33, y: y) == CellStyle(fg: .ok, attributes: .bold))
    }

    @Test("a gate only sent as an event still becomes a card; NOT READY in warn with its blockers")
    func gateFromEvent() {
        let lines = F.lines([
            event(
                1, .completionGate,
                .completionGate(
                    ready: false, summary: "blocked",
                    body: "<COMPLETION_GATE>\nready: false\nsummary: blocked\nblockers: CI is down\n</COMPLETION_GATE>")
            )
        ])
        let rows = lines.flatMap { $0.rows(width: 44) }
        #expect(rows.first?.text.hasSuffix(" NOT READY ┄╮") == true)
        #expect(rows.first?.spans.first?.style.fg == .warn)
        #expect(rows.map(\.text).contains { $0.hasPrefix("┆ blockers  CI is down") })
        let summaryOnly = F.lines([event(1, .completionGate, .completionGate(ready: true, summary: "fine", body: ""))])
        #expect(summaryOnly.contains { $0.text.contains("summary") && $0.text.contains("fine") })
    }

    @Test("a supervisor question is an amber card with the whole question and where to answer it")
    func questionCard() {
        let question =
            "Should I roll back migration 0042 on staging, or wait for the DBA to look at the replica lag first?"
        let lines = F.lines([
            event(1, .supervisorQuestion, .supervisorQuestion(questionID: "q1", text: question, directiveID: "d_7"))
        ])
        let rows = lines.flatMap { $0.rows(width: 40) }
        #expect(rows.first?.text.contains("SUPERVISOR QUESTION//") == true)
        #expect(rows.first?.spans.first?.style.fg == .warn)
        #expect(rows.allSatisfy { $0.width == 40 })
        let words = rows.map { String($0.text.dropFirst(2).dropLast(2)) }.joined(separator: " ")
        #expect(words.split(separator: " ").joined(separator: " ").contains(question))
        #expect(rows.contains { $0.text.contains("d_7") })
        #expect(!rows.contains { $0.text.contains("…") })
    }

    @Test("a status change is a thin rule with the new status and its time")
    func statusRule() {
        let at = Date(timeIntervalSince1970: 12 * 3600 + 5)
        let line = OutputCards.status(
            .failed, reason: "exit 1", time: at, timeZone: TimeZone(identifier: "UTC")!, glyphs: .unicode)
        let row = line.rows(width: 40)[0]
        #expect(row.text == "── STATUS FAILED · 12:00:05 · exit 1 ───")
        #expect(row.spans.first { $0.text == "STATUS FAILED" }?.style.fg == .danger)
        var buffer = TaskOutputBuffer()
        buffer.append([event(1, .status, .status(status: .running, previous: .queued, reason: nil), ts: at)])
        #expect(buffer.lines.first?.time == at)
    }

    @Test("tool output and stderr keep their colours in a block set apart by a gutter")
    func logs() {
        let lines = F.lines([
            F.output(1, "text\n"), F.output(2, "\u{1B}[32mok\u{1B}[0m done\n", stream: "tool"),
            F.output(3, "boom\n", stream: "stderr"),
        ])
        #expect(lines.map(\.text) == ["text", "", "▏ ok done", "", "▏ boom"])
        #expect(lines[2].content.spans.first?.style.fg == .ok)
        #expect(lines[4].content.spans.first?.style.fg == .danger)
        #expect(lines[2].wrap == .characters)
    }

    // MARK: Streaming

    /// Output of a run: markdown split anywhere, logs with SGR, cards and a text gate.
    static let script: [(text: String?, stream: String, payload: TaskEventPayload?)] = [
        (MarkdownFixture.sample, "assistant", nil),
        ("→ tool_use: Bash {\"command\": \"swift test\"}\n\u{1B}[32mok\u{1B}[0m   batch\tdone\n", "tool", nil),
        (nil, "", .status(status: .running, previous: .queued, reason: nil)),
        (
            "More *after* the tool:\n\n```python\ndef f():\n    return \"x\"  # c\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
            "assistant", nil
        ),
        ("warning: \u{1B}[33mslow\u{1B}[0m\n", "stderr", nil),
        (nil, "", .supervisorQuestion(questionID: "q", text: "Proceed with the migration?", directiveID: "d1")),
        (
            "Done.\n\n<COMPLETION_GATE>\nready: false\nsummary: tests still running\nblockers: waiting for CI\n</COMPLETION_GATE>\n",
            "assistant", nil
        ),
        (nil, "", .completionGate(ready: false, summary: "tests still running", body: "")),
        ("trailing open line without newline", "assistant", nil),
    ]

    /// The cells of the script fed in chunks cut by `cut`, converting after every chunk as the
    /// live view does. `check` sees every intermediate rendering.
    func run(_ cut: (String) -> [String], check: ([RenderedLine]) -> Void = { _ in }) -> CellBuffer {
        var buffer = TaskOutputBuffer(capacity: 100_000)
        var conv = TaskOutputLines()
        var seq = 0
        for step in Self.script {
            if let text = step.text {
                for chunk in cut(text) {
                    seq += 1
                    buffer.append([F.output(seq, chunk, stream: step.stream)])
                    check(conv.lines(of: buffer))
                }
            } else if let payload = step.payload {
                seq += 1
                let type: TaskEventType
                switch payload {
                case .status: type = .status
                case .supervisorQuestion: type = .supervisorQuestion
                default: type = .completionGate
                }
                buffer.append([event(seq, type, payload)])
                check(conv.lines(of: buffer))
            }
        }
        return F.cells(conv.lines(of: buffer), width: 60)
    }

    static func scalars(_ s: String) -> [String] { s.unicodeScalars.map { String($0) } }

    static func randomChunks(_ s: String, seed: UInt64) -> [String] {
        var state = seed
        var out: [String] = []
        var rest = Array(s.unicodeScalars)[...]
        while !rest.isEmpty {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let n = Int(state >> 59) + 1  // 1…32
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: rest.prefix(n))
            out.append(String(piece))
            rest = rest.dropFirst(n)
        }
        return out
    }

    @Test("the same output fed whole, a character at a time and in random chunks renders to identical cells")
    func chunkingDoesNotMatter() {
        let whole = run { [$0] }
        var sawRawGate = false
        let single = run(Self.scalars) { lines in
            // Never the raw markup, even while the gate is still arriving.
            if lines.contains(where: { $0.text.contains("<COMPLETION") || $0.text.contains("GATE>") }) {
                sawRawGate = true
            }
        }
        #expect(!sawRawGate)
        #expect(single == whole)
        for seed in [1, 7, 42, 2026] as [UInt64] {
            #expect(run { Self.randomChunks($0, seed: seed) } == whole, "seed \(seed)")
        }
        // Two gates in the text (the sample's and the last), and the gate event adds no third card.
        let rows = (0..<whole.height).map { whole.trimmedLine($0) }
        #expect(rows.filter { $0.contains("COMPLETION GATE//") }.count == 2)
        #expect(rows.filter { $0.contains("NOT READY") }.count == 1)
        #expect(rows.contains { $0.contains("SUPERVISOR QUESTION//") })
        #expect(rows.contains { $0.hasPrefix("── STATUS RUNNING") })
        #expect(rows.last == "trailing open line without newline")
    }

    @Test("the link table numbers links in reading order across blocks")
    func linkTable() {
        var buffer = TaskOutputBuffer()
        buffer.append([F.output(1, "[a](https://a.example)\n\n[b](https://b.example)\n\nend\n")])
        var conv = TaskOutputLines()
        let lines = conv.lines(of: buffer)
        #expect(conv.links.map(\.url) == ["https://a.example", "https://b.example"])
        #expect(lines.map(\.text).contains("[2] https://b.example"))
    }

    @Test("closed blocks are kept: a long stream re-parses only its tail")
    func onlyTheTailIsParsed() {
        var buffer = TaskOutputBuffer(capacity: 1000)
        buffer.append((0..<200).map { F.output($0 + 1, $0 % 2 == 0 ? "para \($0)\n" : "\n") })
        var doc = OutputDocument()
        for (i, line) in buffer.lines.enumerated() {
            doc.append(line, index: i)
            doc.settle()
        }
        // All but the last paragraph are closed: the tail holds at most the last block.
        #expect(doc.closed.filter { $0.text.hasPrefix("para") }.count == 99)
        #expect(doc.shown(open: nil).lines.last?.text == "para 198")
    }

    @Test("a # heading straight under a paragraph closes the blocks before it; streamed equals whole")
    func headingClosesTheTail() {
        // No blank line anywhere before a heading: the tail must still close.
        let text = (0..<60).map { "## step \($0)\nline a of \($0)\nline b of \($0)\n" }.joined()
        var buffer = TaskOutputBuffer(capacity: 1000)
        var doc = OutputDocument()
        var whole = TaskOutputBuffer(capacity: 1000)
        whole.append([F.output(1, text)])
        var seq = 0
        for line in text.split(separator: "\n") {
            seq += 1
            buffer.append([F.output(seq, line + "\n")])
            doc.append(buffer.lines[buffer.lines.count - 1], index: buffer.lines.count - 1)
            doc.settle()
        }
        // Every heading is closed, and every paragraph but the last.
        #expect(doc.closed.filter { $0.text.hasPrefix("step ") }.count == 60)
        #expect(doc.closed.filter { $0.text.hasPrefix("line a of") }.count == 59)
        var streamed = TaskOutputLines()
        var once = TaskOutputLines()
        #expect(streamed.lines(of: buffer) == once.lines(of: whole))
    }
}

@Suite("Task output pane: rendered lines in the view")
struct TaskOutputPaneMarkdownTests {
    @Test("prose wraps at words in the pane, code keeps one row per line and scrolls sideways")
    func paneLayout() {
        let lines = MarkdownFixture.lines([
            MarkdownFixture.output(1, "alpha beta gamma delta\n\n```swift\nlet value = compute(alpha, beta)\n```\n")
        ])
        var pane = TaskOutputPane(model: TaskOutputViewModel(taskID: "t", title: "T", lines: lines))
        var b = CellBuffer(width: 22, height: 12)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        let rows = (3..<12).map { b.trimmedLine($0) }.filter { !$0.isEmpty }
        #expect(
            rows == [
                " alpha beta gamma", " delta", " ╭┄  SWIFT  ┄┄┄┄┄┄┄┄╮", " ┆ let value = comp ┆",
                " ╰┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄╯",
            ])
        pane.scrollSideways(by: 4)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        #expect((3..<12).map { b.trimmedLine($0) }.contains(" ┆ value = compute( ┆"))
        pane.scrollSideways(by: -10)
        #expect(pane.scrollX == 0)
    }
}

@Suite("Search over rendered output, and OSC 52 copy")
struct OutputSearchTests {
    let lines = ["Alpha beta", "gamma", "beta 契約 beta", "Beta"].map { RenderedLine(text: $0) }

    @Test("incremental query: matches with positions in cells, count, n/N wrap around")
    func search() {
        var s = OutputSearch()
        s.update(query: "b", in: lines)
        #expect(s.count == 4)
        s.update(query: "be", in: lines)
        #expect(s.count == 4)  // smartcase: lowercase matches Beta too
        #expect(s.matches.map(\.line) == [0, 2, 2, 3])
        #expect(s.matches[2] == OutputSearch.Match(line: 2, column: 10, width: 2))
        s.update(query: "beta", in: lines, fromLine: 2)
        #expect(s.position == "2/4")
        s.next()
        s.next()
        #expect(s.currentMatch?.line == 3)
        s.next()
        #expect(s.position == "1/4")
        s.previous()
        #expect(s.position == "4/4")
        s.update(query: "Beta", in: lines)
        #expect(s.matches.map(\.line) == [3])
        s.update(query: "契約", in: lines)
        #expect(s.matches == [OutputSearch.Match(line: 2, column: 5, width: 4)])
        s.update(query: "", in: lines)
        #expect(s.count == 0 && s.position == "0/0")
    }

    @Test("a match is drawn in the highlight style over gutter and content, the rest unchanged")
    func highlight() {
        let line = RenderedLine(
            StyledLine("find 契約 here", CellStyle(fg: .body)), prefix: StyledLine("▏ ", CellStyle(fg: .borderMuted)))
        var s = OutputSearch()
        s.update(query: "契約", in: [line])
        let mark = CellStyle(fg: .background, bg: .warn)
        let lit = line.highlighting(s.matches[0], style: mark)
        #expect(lit.text == line.text)
        #expect(
            lit.content.spans == [
                Span("find ", CellStyle(fg: .body)), Span("契約", mark), Span(" here", CellStyle(fg: .body)),
            ])
        #expect(lit.prefix == line.prefix)
    }

    @Test("OSC 52: plain ESC ] 52 ; c ; base64 BEL, cut at a character boundary when too long")
    func osc52() {
        #expect(Clipboard.osc52("hello") == "\u{1B}]52;c;aGVsbG8=\u{07}")
        #expect(Clipboard.osc52("契約") == "\u{1B}]52;c;5aWR57SE\u{07}")
        let long = String(repeating: "契", count: Clipboard.maximumBytes)
        let seq = Clipboard.osc52(long)
        let payload = seq.dropFirst(7).dropLast()
        let decoded = Data(base64Encoded: String(payload)).flatMap { String(data: $0, encoding: .utf8) }
        #expect(decoded != nil)
        #expect((decoded?.utf8.count ?? .max) <= Clipboard.maximumBytes)
        #expect(decoded?.allSatisfy { $0 == "契" } == true)
    }

    @Test("what y and Y copy: the lines' text, and one code block without its frame")
    func copyText() {
        let rendered = MarkdownFixture.lines([
            MarkdownFixture.output(1, "intro\n\n```swift\nlet a = 1\nlet b = 2\n```\n\n```sh\nls\n```\n")
        ])
        #expect(Clipboard.code(block: 1, in: rendered) == "let a = 1\nlet b = 2")
        #expect(Clipboard.code(block: 2, in: rendered) == "ls")
        #expect(Clipboard.code(block: 3, in: rendered) == nil)
        #expect(Clipboard.text(of: rendered.prefix(1)) == "intro")
    }
}

@Suite("Task output: a gate tag without its end")
struct UnclosedGateTests {
    @Test("text that starts with the tag but never closes it is shown as text, not swallowed into a card")
    func unclosedGate() {
        let prose = (0..<80).map { "line \($0)" }.joined(separator: "\n")
        let lines = MarkdownFixture.lines([
            MarkdownFixture.output(1, "<COMPLETION_GATE> is the tag we print\n" + prose + "\n")
        ])
        #expect(!lines.contains { $0.text.contains("COMPLETION GATE//") })
        #expect(lines.last?.text == "line 79")
    }
}

@Suite("Task output: a later line reaching back into an earlier block")
struct MarkdownReachBackTests {
    /// The cells of `text` fed in the chunks `cut` makes, converting after every chunk.
    func cells(_ text: String, _ cut: (String) -> [String]) -> CellBuffer {
        var buffer = TaskOutputBuffer(capacity: 100_000)
        var conv = TaskOutputLines()
        for (i, chunk) in cut(text).enumerated() {
            buffer.append([MarkdownFixture.output(i + 1, chunk)])
            _ = conv.lines(of: buffer)
        }
        return MarkdownFixture.cells(conv.lines(of: buffer), width: 80)
    }

    func expectSameInAnyChunking(_ text: String, _ name: String) {
        let whole = cells(text) { [$0] }
        #expect(cells(text, MarkdownStreamTests.scalars) == whole, "\(name): one character at a time")
        for seed in [1, 7, 42, 2026] as [UInt64] {
            #expect(
                cells(text) { MarkdownStreamTests.randomChunks($0, seed: seed) } == whole, "\(name): seed \(seed)")
        }
    }

    @Test("a delimiter row turning an earlier line into a table header renders the same in any chunking")
    func tableAfterParagraph() {
        let text = "## Plan\n\nSome intro\n| a | b |\n|---|---|\n| 1 | 2 |\n\nafter\n"
        expectSameInAnyChunking(text, "table after paragraph")
        let whole = cells(text) { [$0] }
        let rows = (0..<whole.height).map { whole.trimmedLine($0) }
        #expect(rows.filter { $0.contains("Some intro") }.count == 1)
        // The header is a table row, not the paragraph's raw last line.
        #expect(rows.contains { $0.contains("a") && $0.contains("│") && $0.contains("b") })
        #expect(!rows.contains { $0.contains("| a | b |") })
        expectSameInAnyChunking("intro\n| x |\n|---|\n| 1 |\n", "header after a paragraph line")
        expectSameInAnyChunking("# h\n\npara\nmore\n===\n\nnext\n", "setext underline")
    }

    func rows(_ text: String) -> [String] {
        let whole = cells(text) { [$0] }
        return (0..<whole.height).map { whole.trimmedLine($0) }
    }

    @Test("a paragraph line a delimiter row made a table header closes with the table, whatever ends the markdown")
    func tableHeaderFromParagraphThenGate() {
        let gate = "<COMPLETION_GATE>\nready: true\nsummary: done\n</COMPLETION_GATE>\n"
        // The paragraph the parser splits off in front of a table has no source lines of its
        // own: it must take the table's, or it is lost (or dropped with the line before it).
        for text in [
            "intro\n| a | b |\n|---|---|\n| 1 | 2 |\n\nafter\n" + gate,
            "intro\n| a | b |\n|---|---|\n| 1 | 2 |\n" + gate,
            "intro\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        ] {
            expectSameInAnyChunking(text, text)
            let shown = rows(text)
            #expect(shown.filter { $0 == "intro" }.count == 1, "\(text)")
            #expect(shown.contains { $0.hasPrefix("a") && $0.contains("│") }, "\(text)")
        }
        #expect(rows("intro\n| a |\n|---|\n" + gate).filter { $0.contains("COMPLETION GATE//") }.count == 1)
    }

    @Test("a gate tag opens a gate only at the start of a line, the same streamed and whole, in any block")
    func gateTagPlaces() {
        let gate = "<COMPLETION_GATE>\nready: true\n</COMPLETION_GATE>\n"
        let cases = [
            // Later in the line the tag is text, here in what becomes a table header.
            "intro\nsee *<COMPLETION_GATE> | b |\n|---|---|\n| 1 | 2 |\n\nafter\n",
            // At a line start it ends the paragraph, fence, list, quote or table it interrupts.
            "para\n" + gate + "===\n\nnext\n",
            "para\n" + gate + "---\n",
            "- item\n  " + gate + "  continued\n",
            "> quote\n" + gate + "lazy\n",
            "```\ncode\n" + gate + "```\n\nafter\n",
            "| a |\n|---|\n| 1 |\n" + gate + "| 2 |\n",
            "head\n| a |\n" + gate + "|---|\n| 1 |\n",
        ]
        for text in cases {
            expectSameInAnyChunking(text, text)
            #expect(rows(text).filter { $0.contains("COMPLETION GATE//") }.count == (text.hasPrefix("intro") ? 0 : 1))
        }
        #expect(rows(cases[0]).contains { $0.contains("<COMPLETION_GATE>") })
    }

    @Test("a link reference definition is text wherever it arrives: streamed and whole agree")
    func referenceDefinitions() {
        let cases = [
            // The definition after the paragraph that names it.
            "See [the docs][1] and [more].\n\n[1]: https://example.com/docs\n[more]: https://example.com/more\n\nend\n",
            // The definition first, on its own or in front of text, the link in a later block.
            "[x]: https://x.example\n\nuse [x]\n\nend\n",
            "[x]: https://x.example\nintro\n\nuse [x]\n\nend\n",
            // A title still arriving turns text back into part of a definition.
            "use [t]\n\n[t]: https://t.example\n'ti\ntle'\n\nend\n",
        ]
        for text in cases {
            expectSameInAnyChunking(text, text)
            // No reference resolves: no link is numbered (`[1] url` under its block); the
            // URLs are shown as text, and a bare URL gets no number.
            #expect(!rows(text).contains { $0.hasPrefix("[1] ") }, "\(text)")
        }
        let shown = rows(cases[0])
        #expect(shown.contains("See [the docs][1] and [more]."))
        #expect(shown.contains { $0.hasPrefix("[1]: https://example.com/docs") })
        #expect(shown.contains { $0.contains("[more]: https://example.com/more") })
        #expect(rows(cases[1]).contains("use [x]"))
    }

    @Test("the fuzz finding (Tests/Fuzz/Corpus/markdown/streamed-differs-from-whole) renders the same in any chunking")
    func fuzzFinding() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/markdown/streamed-differs-from-whole")
        // The fuzz target cuts its input into events at NUL bytes; here the text is cut anew.
        let bytes = try Data(contentsOf: url).filter { $0 != 0 }
        let text = UntrustedText.cleanKeepingSGR(String(decoding: bytes, as: UTF8.self))
        #expect(text.contains("|:-----|---:|:----:|"))
        expectSameInAnyChunking(text, "fuzz finding")
    }
}
