import Foundation
import TestSupport
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// Opening the task output's links (`:open N`, a click) through the program's one way to start a
/// child, with a real stand-in `xdg-open` first on the dashboard's PATH that records what it got;
/// and the links the view draws being the links it opens, wherever they sit in the output.
@MainActor @Suite("Links: opened through the child launcher, and every drawn link opens")
struct LinkOpeningTests {
    static let secret = "mk_link_opening_secret_0001"

    func harness(_ opener: FakeOpener) throws -> ControllerHarness {
        try ControllerHarness(configure: { setup in
            setup.environment["PATH"] = opener.path
            setup.environment["MAKIMA_API_KEY"] = Self.secret
            setup.environment["MAKIMA_SERVER_URL"] = "http://127.0.0.1:1"
            setup.environment["XDG_CURRENT_DESKTOP"] = "GNOME"
            setup.environment["HOME"] = "/home/op"
        })
    }

    /// Opens task t1's output view with `text` as its output (through the cache when `cached`).
    func open(_ h: ControllerHarness, _ text: String, cached: Bool = false) throws {
        let task = MeshTask(id: "t1", title: "links job", status: .completed)
        let events = [
            TaskEvent(
                eventID: 1, taskID: "t1", seq: 1, type: .output, payload: .output(text: text, stream: "assistant"))
        ]
        if cached {
            h.engine.servesCachedOutput = true
            _ = try #require(h.engine.cache).appendEvents(events)
        }
        h.post(.list(.tasks(status: nil, contractID: nil), .tasks([task]), fetchedAt: Date(), fromCache: false))
        h.type(.char("3"))
        h.type(.enter)
        if !cached { h.post(.events(events)) }
    }

    func command(_ h: ControllerHarness, _ text: String) {
        h.type(.char(":"))
        for c in text { h.type(.char(c)) }
        h.type(.enter)
    }

    func click(_ h: ControllerHarness, on text: String, times: Int = 1) throws {
        let at = try #require(h.terminal.backend.find(text), "\(text) is not on screen: \(h.screen)")
        h.terminal.send(Array(String(repeating: MouseControllerTests.click(at.x, at.y), count: times).utf8))
        h.step()
    }

    static let guide = "Read the [guide](https://example.com/guide) first.\n\nThen the rest.\n"

    @Test("`:open 1` runs xdg-open with the URL alone, no MAKIMA_ variable or key, and only 0/1/2 open")
    func cleanChild() throws {
        let opener = try FakeOpener()
        let h = try harness(opener)
        defer { h.cleanUp() }
        let stray = openInheritableDescriptor()
        defer { close(stray) }
        try open(h, Self.guide)
        command(h, "open 1")
        #expect(h.shows("opening https://example.com/guide"), "\(h.screen)")
        let run = try #require(opener.waitForRuns(1).first)
        #expect(run.arguments == ["https://example.com/guide"])
        #expect(run.descriptors == [0, 1, 2], "\(run.descriptors)")
        #expect(!run.environment.contains { $0.hasPrefix("MAKIMA_") }, "\(run.environment)")
        let everything = (run.arguments + run.environment).joined(separator: "\n")
        #expect(!everything.contains(Self.secret) && !everything.contains("mk_controller_test_0001"))
        #expect(run.environment.contains("XDG_CURRENT_DESKTOP=GNOME"))
    }

    @Test("200 clicks on a link in one read start one xdg-open, one child at a time")
    func clickFlood() throws {
        let opener = try FakeOpener(holds: true)
        let h = try harness(opener)
        defer { h.cleanUp() }
        try open(h, Self.guide)
        try click(h, on: "guide", times: 200)
        command(h, "open 1")
        opener.release()
        let deadline = Date().addingTimeInterval(120)
        while h.live.children.isBusy && Date() < deadline { usleep(20_000) }
        #expect(opener.runs.map(\.arguments) == [["https://example.com/guide"]])
        #expect(h.live.children.stats.childrenStarted == 1)
        #expect(h.live.children.stats.mostChildrenAtOnce == 1)
        #expect(!opener.overlapped)
    }

    @Test("mailto, file, javascript and custom schemes are refused with a toast naming the scheme; nothing starts")
    func refusedSchemes() throws {
        let opener = try FakeOpener()
        let h = try harness(opener)
        defer { h.cleanUp() }
        let text = """
            [mail](mailto:x@y?attach=~/.config/makima-tui/credentials/default) [f](file:///etc/passwd) \
            [steam](steam://run/1) [web](https://example.com/ok)

            """
        try open(h, text)
        for (n, scheme) in [(1, "mailto"), (2, "file"), (3, "steam")] {
            command(h, "open \(n)")
            #expect(h.shows("not opened: a \(scheme): link"), "\(h.screen)")
            h.advance(6)
        }
        command(h, "open 4")
        // One child at a time, in order: once the web link has run, nothing before it did.
        #expect(opener.waitForRuns(1).map(\.arguments) == [["https://example.com/ok"]])
        #expect(h.live.children.stats.childrenStarted == 1)
    }

    @Test("a link in the last block of output read from the cache at open is opened by :open 1 and a click")
    func cachedAtOpen() throws {
        let opener = try FakeOpener(holds: true)
        let h = try harness(opener)
        defer { h.cleanUp() }
        try open(h, "## Done\n\nThe build passed: see [the report](https://example.com/report).\n", cached: true)
        #expect(h.shows("[1] https://example.com/report"), "\(h.screen)")
        command(h, "open 1")
        #expect(h.shows("opening https://example.com/report"), "\(h.screen)")
        h.advance(6)
        // The first xdg-open still runs (held): the click finds the same link, not a second child.
        try click(h, on: "the report")
        #expect(h.shows("already opening https://example.com/report"), "\(h.screen)")
        opener.release()
        #expect(opener.waitForRuns(1).map(\.arguments) == [["https://example.com/report"]])
    }

    @Test("a link on the unfinished last line is drawn numbered and opened by :open 1")
    func openLastLine() throws {
        let opener = try FakeOpener()
        let h = try harness(opener)
        defer { h.cleanUp() }
        try open(h, "Deployed. Watch it on [the dashboard](https://example.com/live)")
        #expect(h.shows("[1] https://example.com/live"), "\(h.screen)")
        command(h, "open 1")
        #expect(!h.shows("no link [1]"), "\(h.screen)")
        #expect(opener.waitForRuns(1).map(\.arguments) == [["https://example.com/live"]])
    }
}
