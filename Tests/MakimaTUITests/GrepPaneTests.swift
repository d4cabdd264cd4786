import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// `:grep` from the command line to the results pane and into the task view, over the
/// controller's real cache on a memory terminal; the results' highlighting; Home's
/// ACTIVITY// card.
@MainActor @Suite("Search across every task's output, and the activity card")
struct GrepPaneTests {
    @Test("command line: grep keeps the pattern as typed; grep alone asks for one")
    func commandLine() {
        var line = CommandLineState(text: "grep Zebra \"AND\" x*")
        #expect(line.apply(.submit) == .grep("Zebra \"AND\" x*"))
        line = CommandLineState(text: "grep")
        #expect(line.apply(.submit) == .editing)
        #expect(line.text == "grep ")
        #expect(CommandLineState.candidates(for: "gr") == ["grep"])
    }

    @Test("a hit's line has every match, any case, in the search colours")
    func highlighting() {
        let line = GrepResultsModel.highlighted("a Zebra and a zebra", pattern: "ZEBRA")
        let marked = line.spans.filter { $0.style.bg == .warn }.map(\.text)
        #expect(marked == ["Zebra", "zebra"])
        #expect(line.text == "a Zebra and a zebra")
    }

    @Test(":grep lists the cached line under the task's title; Enter opens the task searched, on the match")
    func grepThenOpen() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let events = [
            TaskEvent(
                eventID: 1, taskID: "t1", seq: 1, type: .output,
                payload: .output(text: "first line\n\nthe ZEBRA crossing\n", stream: "assistant"))
        ]
        try #require(h.live.cache).appendEvents(events)
        let task = MeshTask(id: "t1", title: "docs job", status: .completed)
        h.post(.list(.tasks(status: nil, contractID: nil), .tasks([task]), fetchedAt: Date(), fromCache: false))
        h.type(.char(":"))
        for c in "grep zebra" { h.type(.char(c)) }
        h.type(.enter)
        #expect(h.shows("GREP//"), "\(h.screen)")
        // The search runs on its own queue; its answer comes back through the bus.
        let deadline = Date().addingTimeInterval(10)
        while !h.shows("1 line") && Date() < deadline {
            usleep(10_000)
            h.step()
        }
        #expect(h.shows("docs job"), "\(h.screen)")
        #expect(h.shows("COMPLETED"))
        #expect(h.shows("the ZEBRA crossing"))
        h.type(.enter)
        #expect(h.shows("TASK//"), "\(h.screen)")
        // The view opened before its output arrived (this engine reads no cache): the seek
        // waits for a line that matches.
        h.post(.events(events))
        #expect(h.terminal.backend.trimmedLine(39).contains("/zebra  1/1"), "\(h.screen)")
        h.type(.char("q"))
        #expect(h.shows("GREP//"))
    }

    @Test("output streamed in 7-character pieces: each whole line a hit; Enter opens the view on that line")
    func grepStreamedLines() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let text = """
            ## Findings

            The **scheduler** drops `heartbeat` frames when *busy*.

            - the first point: frames queue behind the writer

            """
        var events: [TaskEvent] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            events.append(
                TaskEvent(
                    eventID: Int64(events.count + 1), taskID: "t1", seq: events.count + 1, type: .output,
                    payload: .output(text: String(rest.prefix(7)), stream: "assistant")))
            rest = rest.dropFirst(7)
        }
        let cache = try #require(h.live.cache)
        for event in events { try cache.appendEvents([event]) }
        h.post(
            .list(
                .tasks(status: nil, contractID: nil), .tasks([MeshTask(id: "t1", title: "report", status: .running)]),
                fetchedAt: Date(), fromCache: false))
        h.type(.char(":"))
        for c in "grep frames" { h.type(.char(c)) }
        h.type(.enter)
        let deadline = Date().addingTimeInterval(10)
        while !h.shows("2 lines") && Date() < deadline {
            usleep(10_000)
            h.step()
        }
        // Newest first, each the whole line however the stream cut it.
        #expect(h.shows("the first point: frames queue behind the writer"), "\(h.screen)")
        #expect(h.shows("The **scheduler** drops `heartbeat` frames when *busy*."), "\(h.screen)")
        h.type(.char("j"))
        h.type(.enter)
        #expect(h.shows("TASK//"), "\(h.screen)")
        h.post(.events(events))
        // On the scheduler line (the first of the two matches), not the newest match.
        #expect(h.terminal.backend.trimmedLine(39).contains("/frames  1/2"), "\(h.screen)")
    }

    @Test("ACTIVITY// draws the history's bars with their scales")
    func activityCard() {
        let now = 28_000_000
        let history = ActivityHistory(
            minutes: [
                ActivityMinute(minute: now - 1, output: 40, completed: 2, failed: 1, daemonsOnline: 3),
                ActivityMinute(minute: now, output: 10),
            ], now: now)
        let card = ActivityCard.card(history, width: 90, glyphs: .unicode)
        #expect(card.rows.map { $0.right?.text } == ["max 2", "max 1", "max 40", "max 3"])
        let minutes = card.rows[2].left
        // Braille, two minutes a cell: 40 is a full left column, 10 one dot on the right.
        #expect(minutes.text.hasSuffix("⣇"))
        #expect(minutes.text.count == "out/min  ".count + 30)
        #expect(minutes.spans.last?.style.fg == .accent)
        #expect(ActivityCard.card(history, width: 40, glyphs: .ascii).rows.count == 3)
    }
}
