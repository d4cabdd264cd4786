import Foundation
import MakimaKit
import Testing

@_spi(Fuzzing) @testable import MakimaTUI

@Suite("Task output view: buffer to styled lines, follow mode")
struct TaskOutputViewTests {
    func output(_ seq: Int, _ text: String, stream: String = "assistant") -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: "t", seq: seq, type: .output,
            payload: .output(text: UntrustedText.cleanKeepingSGR(text), stream: stream))
    }

    /// What a fresh conversion of the whole buffer gives (the reference for the incremental one).
    func full(_ buffer: TaskOutputBuffer) -> [RenderedLine] {
        var fresh = TaskOutputLines()
        return fresh.lines(of: buffer)
    }

    @Test(
        "incremental conversion equals a full one across appends, an open line, trimming and older output put in front")
    func incremental() {
        var buffer = TaskOutputBuffer(capacity: 50)
        var lines = TaskOutputLines()
        var seq = 0
        for round in 0..<12 {
            let events = (0..<9).map { i -> TaskEvent in
                seq += 1
                return output(seq, i == 8 ? "open \(round)" : "line \(seq)\n\n")
            }
            buffer.append(events)
            #expect(lines.lines(of: buffer) == full(buffer), "round \(round)")
        }
        #expect(buffer.droppedLines > 0)
        #expect(lines.lines(of: buffer).last?.text == "open 11")

        // Older output (fetched on demand) in front of a buffer that dropped nothing.
        var live = TaskOutputBuffer()
        live.append((20...25).map { output($0, "live \($0)\n") })
        var incremental = TaskOutputLines()
        _ = incremental.lines(of: live)
        var older = TaskOutputBuffer(capacity: Int.max)
        older.append((1...19).map { output($0, "old \($0)\n") })
        live.prepend(older)
        let after = incremental.lines(of: live)
        #expect(after.first?.text == "old 1")
        #expect(after == full(live))
    }

    @Test("tool output: colours from SGR carry to the next line of the same stream, never into another stream")
    func sgrCarries() {
        var buffer = TaskOutputBuffer()
        buffer.append([
            output(1, "\u{1B}[32mgreen starts\nstill green\n", stream: "tool"), output(2, "boom\n", stream: "stderr"),
            output(3, "more green\u{1B}[0m plain\n", stream: "tool"),
        ])
        var conv = TaskOutputLines()
        let lines = conv.lines(of: buffer).filter { !$0.content.spans.isEmpty }
        #expect(lines.map(\.content.text) == ["green starts", "still green", "boom", "more green plain"])
        #expect(lines[1].content.spans.first?.style.fg == .ok)
        #expect(lines[2].content.spans.first?.style.fg == .danger)
        #expect(lines[2].prefix.spans.first?.style.fg == .danger)
        #expect(lines[3].content.spans.first == Span("more green", CellStyle(fg: .ok)))
        #expect(lines[3].content.spans.last == Span(" plain", CellStyle(fg: .foregroundMuted)))
    }

    @Test("an SGR sequence split across two chunks is joined, not shown as text")
    func splitSGR() {
        var buffer = TaskOutputBuffer()
        buffer.append([output(1, "ok \u{1B}[3", stream: "tool"), output(2, "1mred\n", stream: "tool")])
        var conv = TaskOutputLines()
        let line = conv.lines(of: buffer).first { !$0.content.spans.isEmpty }
        #expect(line?.content.text == "ok red")
        #expect(line?.content.spans.last == Span("red", CellStyle(fg: .danger)))
        // While the second half has not come, the unfinished sequence shows as nothing.
        var half = TaskOutputBuffer()
        half.append([output(1, "ok \u{1B}[3", stream: "tool")])
        var conv2 = TaskOutputLines()
        #expect(conv2.lines(of: half).last?.content.text == "ok ")
    }

    func pane(lines count: Int, dropped: Int = 0) -> TaskOutputPane {
        TaskOutputPane(
            model: TaskOutputViewModel(
                taskID: "t", title: "Build 契約", status: .running,
                lines: (dropped..<(dropped + count)).map { RenderedLine(text: "line \($0)") }, firstLineNumber: dropped)
        )
    }

    @Test("follow mode keeps the newest line at the bottom; k pauses and new output does not move the view; G follows")
    func follow() {
        var p = pane(lines: 100)
        var b = CellBuffer(width: 40, height: 13)
        p.render(into: &b, region: b.bounds, context: RenderContext())
        #expect(b.trimmedLine(0).hasSuffix("100 lines"))
        #expect(p.footerStatus == "FOLLOWING")
        #expect(b.trimmedLine(1) == "  RUNNING   Build 契約")
        #expect(b.style(atX: 2, y: 1).bg == StatusStyle.task(.running))
        #expect(b.trimmedLine(12) == " line 99")
        #expect(b.trimmedLine(3) == " line 90")
        _ = p.handle(.moveUp)
        #expect(!p.following)
        p.update(
            TaskOutputViewModel(
                taskID: "t", title: "Build 契約", lines: (10..<130).map { RenderedLine(text: "line \($0)") },
                firstLineNumber: 10)
        )
        p.render(into: &b, region: b.bounds, context: RenderContext())
        #expect(b.trimmedLine(3) == " line 89")
        #expect(p.footerStatus == "PAUSED · F follows")
        _ = p.handle(.bottom)
        p.render(into: &b, region: b.bounds, context: RenderContext())
        #expect(b.trimmedLine(12) == " line 129")
    }

    @Test("long and CJK lines wrap by cells; moving down past the end follows again")
    func wrapping() {
        var p = TaskOutputPane(
            model: TaskOutputViewModel(
                taskID: "t", title: "x",
                lines: [RenderedLine(text: String(repeating: "契", count: 25)), RenderedLine(text: "end")]))
        var b = CellBuffer(width: 22, height: 10)
        p.render(into: &b, region: b.bounds, context: RenderContext())
        #expect(b.isWellFormed)
        #expect(b.trimmedLine(3) == " " + String(repeating: "契", count: 10))
        #expect(b.trimmedLine(5) == " " + String(repeating: "契", count: 5))
        #expect(b.trimmedLine(6) == " end")
        _ = p.handle(.top)
        #expect(!p.following)
        p.render(into: &b, region: b.bounds, context: RenderContext())
        _ = p.handle(.moveDown)
        #expect(p.following)
        #expect(StyledLine("").wrapped(to: 5) == [StyledLine("")])
    }
}

@Suite struct TaskOutputOlderLinesTests {
    func asked(_ response: PaneResponse) -> DashboardRequest? {
        if case .request(let r) = response { return r }
        return nil
    }

    @Test func reachingTheTopAsksForOlderLinesOnlyWhenTheServerHasSome() {
        let lines = (1...50).map { RenderedLine(text: "line \($0)") }
        var trimmed = TaskOutputPane(
            model: TaskOutputViewModel(taskID: "t1", title: "T", lines: lines, firstLineNumber: 120))
        #expect(asked(trimmed.handle(.top)) == .loadOlderOutput(taskID: "t1", toStart: true))
        var scrolled = TaskOutputPane(
            model: TaskOutputViewModel(taskID: "t1", title: "T", lines: lines, firstLineNumber: 120))
        #expect(asked(scrolled.handle(.moveUp)) == .loadOlderOutput(taskID: "t1", toStart: false))
        var whole = TaskOutputPane(
            model: TaskOutputViewModel(taskID: "t2", title: "T", lines: lines, firstLineNumber: 0))
        #expect(asked(whole.handle(.top)) == nil, "nothing older exists: the key is simply handled")
        var loading = TaskOutputViewModel(taskID: "t1", title: "T", lines: lines, firstLineNumber: 120)
        loading.older = .loading
        var waiting = TaskOutputPane(model: loading)
        #expect(asked(waiting.handle(.top)) == nil, "one fetch at a time")
    }

    @Test func olderLinesInFrontKeepTheViewOnItsLine() {
        let lines = (121...170).map { RenderedLine(text: "line \($0)") }
        var pane = TaskOutputPane(
            model: TaskOutputViewModel(taskID: "t", title: "T", lines: lines, firstLineNumber: 120))
        _ = pane.handle(.moveUp)
        let older = (21...170).map { RenderedLine(text: "line \($0)") }
        pane.update(TaskOutputViewModel(taskID: "t", title: "T", lines: older, firstLineNumber: 20))
        #expect(pane.top == 100)
        #expect(pane.model.lines[pane.top] == RenderedLine(text: "line 121"))
    }

    @Test func gStaysOnTheFirstLineWhileOlderOutputComes() {
        let lines = (121...170).map { RenderedLine(text: "line \($0)") }
        var pane = TaskOutputPane(
            model: TaskOutputViewModel(taskID: "t", title: "T", lines: lines, firstLineNumber: 120))
        _ = pane.handle(.top)
        var older = TaskOutputViewModel(
            taskID: "t", title: "T", lines: (1...170).map { RenderedLine(text: "line \($0)") })
        older.origin = 0
        pane.update(older)
        #expect(pane.top == 0)
        var b = CellBuffer(width: 40, height: 12)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        #expect(b.trimmedLine(3) == " start of output")
        #expect(b.trimmedLine(4) == " line 1")
    }

    @Test func theTopLineSaysWhatIsOlder() {
        let lines = (1...50).map { RenderedLine(text: "line \($0)") }
        var model = TaskOutputViewModel(taskID: "t", title: "T", lines: lines, firstLineNumber: 120)
        for (state, text) in [
            (OlderOutput.loading, " loading older output…"),
            (.windowFull, " older output not held: a view keeps 50,000 lines"),
        ] {
            model.older = state
            var pane = TaskOutputPane(model: model)
            _ = pane.handle(.top)
            var b = CellBuffer(width: 60, height: 12)
            pane.render(into: &b, region: b.bounds, context: RenderContext())
            #expect(b.trimmedLine(3) == text)
            #expect(b.trimmedLine(4) == " line 1")
        }
    }
}

/// Older output put in front of a task's buffer, through the conversion the view uses.
@Suite struct TaskOutputLinesOlderTests {
    static let text = (1...400).map { i in
        i % 40 == 0 ? "## Part \(i / 40)\n\n" : i % 7 == 0 ? "- item \(i)\n" : "line \(i) of the output\n"
    }

    func events(_ seqs: ClosedRange<Int>) -> [TaskEvent] {
        seqs.map {
            TaskEvent(
                eventID: Int64($0), taskID: "t", seq: $0, type: .output,
                payload: .output(text: Self.text[$0 - 1], stream: "assistant"))
        }
    }

    @Test func prependingRendersAsTheWholeTextAtOnce() {
        var buffer = TaskOutputBuffer(capacity: 150)
        var converted = TaskOutputLines()
        buffer.append(events(1...400))
        _ = converted.lines(of: buffer)
        #expect(converted.older == .available)
        var older = TaskOutputBuffer(capacity: Int.max)
        older.append(events(1...(buffer.firstSeq! - 1)))
        buffer.prepend(older, from: 1)
        let streamed = converted.lines(of: buffer)
        #expect(converted.older == .start)
        var whole = TaskOutputBuffer(capacity: Int.max)
        whole.append(events(1...400))
        var once = TaskOutputLines()
        #expect(streamed == once.lines(of: whole))
    }

    @Test func theHeadersLineCountDoesNotDropWhileOlderOutputLoads() {
        var buffer = TaskOutputBuffer(capacity: 150)
        var converted = TaskOutputLines()
        // Streamed as the view sees it: converted after each piece, lines leaving the front.
        for start in stride(from: 1, through: 400, by: 10) {
            buffer.append(events(start...(start + 9)))
            _ = converted.lines(of: buffer)
        }
        func header() -> String {
            var model = TaskOutputViewModel(
                taskID: "t", title: "t", lines: converted.lines(of: buffer),
                firstLineNumber: converted.firstLineNumber)
            model.adopt(converted)
            var pane = TaskOutputPane(model: model)
            var b = CellBuffer(width: 60, height: 10)
            pane.render(into: &b, region: b.bounds, context: RenderContext())
            return b.trimmedLine(0)
        }
        let before = header()
        let count = Int(before.split(separator: " ").dropLast().last ?? "")
        // A window of older output (PgUp): 20 events in front, not back to the output's start.
        let first = buffer.firstSeq!
        var older = TaskOutputBuffer(capacity: Int.max)
        older.append(events((first - 20)...(first - 1)))
        buffer.prepend(older)
        let after = header()
        let countAfter = Int(after.split(separator: " ").dropLast().last ?? "") ?? 0
        #expect((count ?? 0) > 0, "\(before)")
        #expect(countAfter >= count ?? .max, "before: \(before); after: \(after)")
    }

    @Test func theLineOnScreenKeepsItsNumberWhenOlderLinesComeInFront() {
        func text(_ i: Int) -> String { i % 10 == 0 ? "## Part \(i / 10)\n\n" : "Paragraph \(i).\n\n" }
        // Closed blocks: the old first line's place is known exactly.
        expectKeepsLine(text, exact: true)
        // One unfinished block (no blank lines, a list taking lazy lines): counted, close.
        expectKeepsLine({ Self.text[$0 - 1] }, exact: false)
    }

    func expectKeepsLine(_ text: (Int) -> String, exact: Bool) {
        func events(_ seqs: ClosedRange<Int>) -> [TaskEvent] {
            seqs.map {
                TaskEvent(
                    eventID: Int64($0), taskID: "t", seq: $0, type: .output,
                    payload: .output(text: text($0), stream: "assistant"))
            }
        }
        var buffer = TaskOutputBuffer(capacity: 150)
        var converted = TaskOutputLines()
        buffer.append(events(1...400))
        let before = converted.lines(of: buffer)
        let firstNumber = converted.origin
        var older = TaskOutputBuffer(capacity: Int.max)
        older.append(events(1...(buffer.firstSeq! - 1)))
        buffer.prepend(older, from: 1)
        let after = converted.lines(of: buffer)
        let index = firstNumber - converted.origin
        let first = before.first { !$0.content.text.isEmpty }!
        let near = after[max(0, index - 1)...min(after.count - 1, index + 2)]
        if exact {
            // At most the blank line that now separates it from the block before.
            let blank = after[index...].prefix { $0 == RenderedLine() }.count
            #expect(blank <= 1)
            #expect(after[(index + blank)...].prefix(5) == before.prefix(5))
        } else {
            #expect(near.contains { $0.content.text == first.content.text })
        }
    }
}
