import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The task view's reading keys through the whole controller on a memory terminal: search,
/// follow, wrap, sideways scroll, copy (the OSC 52 bytes the backend received), the plan.
@MainActor @Suite("Task view keys on a memory terminal")
struct TaskViewKeysTests {
    static let markdown = """
        # Release notes

        Some **bold** prose about the build, with a [guide](https://example.com/guide).

        ```swift
        let answer = 42
        print(answer)
        ```

        A long prose line that keeps going well past the edge of the view so that wrapping matters a lot, and then it continues for another sixty characters or so, ending in ZEBRAWORD here.

        """

    /// Opens task t1 (with a plan) and feeds it `text` as assistant output, then `filler` log lines.
    func open(filler: Int = 0) throws -> ControllerHarness {
        let h = try ControllerHarness()
        let task = MeshTask(
            id: "t1", contractID: "c9", title: "docs job", plan: "## Steps\n- **first** step\n- second step",
            status: .running, daemonID: "d7", createdAt: Date().addingTimeInterval(-300))
        h.post(.list(.tasks(status: nil, contractID: nil), .tasks([task]), fetchedAt: Date(), fromCache: false))
        h.type(.char("3"))
        h.type(.enter)
        // The view asked for the task's detail when it opened; its answer brings the plan (the
        // task table keeps a row's columns, not the plan).
        #expect(h.engine.details.contains(.task("t1")))
        h.post(.task(task))
        var events = [
            TaskEvent(
                eventID: 1, taskID: "t1", seq: 1, type: .output,
                payload: .output(text: Self.markdown, stream: "assistant"))
        ]
        events += (0..<filler).map {
            TaskEvent(
                eventID: Int64($0 + 2), taskID: "t1", seq: $0 + 2, type: .output,
                payload: .output(text: "log-\($0)\n", stream: "stdout"))
        }
        h.post(.events(events))
        return h
    }

    var footer: Int { 39 }

    /// The OSC 52 sequences the terminal received, decoded: what each put on the clipboard.
    func copies(_ h: ControllerHarness) -> [String] {
        let written = String(decoding: h.terminal.backend.controlBytes, as: UTF8.self)
        return written.components(separatedBy: "\u{1B}]52;c;").dropFirst().compactMap { rest in
            guard let end = rest.firstIndex(of: "\u{07}") else { return nil }
            return Data(base64Encoded: String(rest[..<end])).flatMap { String(data: $0, encoding: .utf8) }
        }
    }

    func copied(_ h: ControllerHarness) -> String? { copies(h).last }

    @Test("header shows status pill, title, daemon, contract and age; p opens the plan rendered as markdown")
    func headerAndPlan() throws {
        let h = try open()
        defer { h.cleanUp() }
        #expect(h.shows("RUNNING"), "\(h.screen)")
        #expect(h.shows("docs job"))
        #expect(h.shows("DAEMON d7"), "\(h.screen)")
        #expect(h.shows("CONTRACT c9"))
        #expect(h.shows("CREATED 5m ago"))
        #expect(h.shows("PLAN//"))
        #expect(!h.shows("first step"))
        h.type(.char("p"))
        #expect(h.shows("first step"), "\(h.screen)")
        #expect(!h.shows("**first**"))
        #expect(!h.shows("## Steps"))
        h.type(.char("p"))
        #expect(!h.shows("first step"))
    }

    @Test("/ searches incrementally with the count in the footer and the match highlighted; Esc clears, then leaves")
    func search() throws {
        let h = try open()
        defer { h.cleanUp() }
        #expect(!h.shows("**bold**"), "\(h.screen)")
        h.type(.char("/"), .char("a"), .char("n"))
        #expect(h.terminal.backend.trimmedLine(footer).hasSuffix("/an_  1/4  ·  FOLLOWING"), "\(h.screen)")
        h.type(.char("s"), .char("w"))
        #expect(h.terminal.backend.trimmedLine(footer).contains("/answ_  1/2"))
        h.type(.char("e"), .char("r"), .enter)
        #expect(h.terminal.backend.trimmedLine(footer).contains("/answer  1/2"), "\(h.screen)")
        let at = try #require(h.terminal.backend.find("let answer"))
        #expect(h.terminal.backend.style(atX: at.x + 4, y: at.y).bg == .accent)
        #expect(h.terminal.backend.style(atX: at.x, y: at.y).bg != .accent)
        h.type(.char("n"))
        #expect(h.terminal.backend.trimmedLine(footer).contains("/answer  2/2"))
        #expect(h.terminal.backend.style(atX: at.x + 4, y: at.y).bg == .warn)
        h.type(.char("N"))
        #expect(h.terminal.backend.trimmedLine(footer).contains("/answer  1/2"))
        h.type(.escape)
        #expect(h.shows("TASK//"))
        #expect(!h.terminal.backend.trimmedLine(footer).contains("/answer"))
        #expect(h.terminal.backend.style(atX: at.x + 4, y: at.y).bg != .accent)
        h.type(.escape)
        #expect(!h.shows("TASK//"), "\(h.screen)")
    }

    @Test("follow stops on k and the footer says so; F and End resume it")
    func follow() throws {
        let h = try open(filler: 80)
        defer { h.cleanUp() }
        #expect(h.shows("log-79"))
        #expect(h.terminal.backend.trimmedLine(footer).hasSuffix("FOLLOWING"))
        h.type(.char("k"), .char("k"), .char("k"))
        #expect(!h.shows("log-79"))
        #expect(h.terminal.backend.trimmedLine(footer).hasSuffix("PAUSED · F follows"))
        h.type(.char("F"))
        #expect(h.shows("log-79"))
        #expect(h.terminal.backend.trimmedLine(footer).hasSuffix("FOLLOWING"))
        h.type(.pageUp)
        #expect(h.terminal.backend.trimmedLine(footer).hasSuffix("PAUSED · F follows"))
        h.type(.end)
        #expect(h.terminal.backend.trimmedLine(footer).hasSuffix("FOLLOWING"))
    }

    @Test("w turns prose wrapping off (the line is cut and scrolls sideways with →); w again wraps")
    func wrap() throws {
        let h = try open()
        defer { h.cleanUp() }
        #expect(h.shows("ZEBRAWORD"))
        h.type(.char("w"))
        #expect(!h.shows("ZEBRAWORD"), "\(h.screen)")
        for _ in 0..<8 { h.type(.right) }
        #expect(h.shows("ZEBRAWORD"), "\(h.screen)")
        for _ in 0..<8 { h.type(.left) }
        h.type(.char("w"))
        #expect(h.shows("ZEBRAWORD"))
    }

    @Test("y sends the visible output as OSC 52 through the backend, Y the code block; a toast says what")
    func copy() throws {
        let h = try open()
        defer { h.cleanUp() }
        #expect(copies(h).isEmpty)
        h.type(.char("y"))
        let all = try #require(copied(h))
        #expect(all.contains("RELEASE NOTES"))
        #expect(all.contains("let answer = 42"))
        #expect(!all.contains("**"))
        #expect(h.shows("copied"), "\(h.screen)")
        h.type(.char("Y"))
        #expect(copied(h) == "let answer = 42\nprint(answer)")
        // Toasts queue: the second shows once the first has had its time.
        for _ in 0..<30 where !h.shows("copied code block 1 (2 lines)") { h.advance(1) }
        #expect(h.shows("copied code block 1 (2 lines)"), "\(h.screen)")
        #expect(copies(h).count == 2)
    }

    @Test(":open N says what is wrong with a missing link; the pane hands an existing one's URL to the app")
    func openLink() throws {
        let h = try open()
        defer { h.cleanUp() }
        h.type(.char(":"), .char("o"), .char("p"), .char("e"), .char("n"), .char(" "), .char("7"), .enter)
        #expect(h.shows("no link [7]"), "\(h.screen)")
        var pane = try #require(h.session.topPane as? TaskOutputPane)
        guard case .request(.openURL(let url)) = pane.handle(.openLink(1)) else {
            Issue.record("no openURL request")
            return
        }
        #expect(url == "https://example.com/guide")
    }

    @Test("output already shown stays through a lost connection, a failed fetch, a reconnect and a 401")
    func outputSurvivesErrors() throws {
        let h = try open(filler: 5)
        defer { h.cleanUp() }
        #expect(h.shows("log-4"))
        h.post(.connection(ConnectionStatus(phase: .offline(nextRetry: nil), lastError: "reset")))
        h.post(.listFailed(.tasks(status: nil, contractID: nil), message: "HTTP 500"))
        #expect(h.shows("log-4"), "\(h.screen)")
        h.type(.char("R"))
        h.post(.connection(ConnectionStatus(phase: .online)))
        #expect(h.shows("log-4"), "\(h.screen)")
        #expect(h.shows("let answer = 42"))
        h.post(.unauthorized(message: "401"))
        #expect(h.shows("log-4"), "\(h.screen)")
    }
}
