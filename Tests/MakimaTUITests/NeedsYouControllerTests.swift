import Foundation
import TestSupport
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The needs-you list through the real controller on a memory terminal: what the operator
/// sees in the masthead and on Home, where `n` takes them, and `x` kept across a restart.
@MainActor @Suite("Needs you: the masthead count, NEEDS YOU//, n/N and x")
struct NeedsYouControllerTests {
    func seeded() throws -> ControllerHarness {
        let h = try ControllerHarness()
        NavigationControllerTests().seed(h)
        return h
    }

    @Test("the count is in the masthead and Home lists the items, oldest first")
    func countAndCard() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        #expect(h.shows("NEEDS YOU 2"), "\(h.screen)")
        #expect(h.shows("NEEDS YOU//"))
        let failed = try #require(h.terminal.backend.find("FAILED  Invoice export"))
        let question = try #require(h.terminal.backend.find("QUESTION  May I migrate"))
        #expect(failed.y < question.y, "the failure has a time, the question none: it comes first")
    }

    @Test("n opens the oldest, then the next; N goes back; x leaves the list and the count")
    func jumpAndAcknowledge() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        h.type(.char("N"))
        #expect(h.shows("DIRECTIVE Ship payments"), "N from nothing: the newest: \(h.screen)")
        h.type(.char("q"))
        h.type(.char("n"))
        #expect(h.shows("TASK Invoice export"), "n goes on from there, round to the oldest: \(h.screen)")
        h.type(.char("x"))
        #expect(h.shows("NEEDS YOU 1"), "\(h.screen)")
        h.type(.char("q"))
        #expect(!h.shows("FAILED  Invoice export"), "\(h.screen)")
        h.type(.char("n"))
        #expect(h.shows("DIRECTIVE Ship payments"), "the question's directive: \(h.screen)")
        h.type(.char("x"))
        #expect(!h.shows("NEEDS YOU"), "nothing waits: the masthead says nothing: \(h.screen)")
        h.type(.char("n"))
        // Toasts wait their turn (5 s each on the loop's clock): the two "done" come first.
        for _ in 0..<3 where !h.shows("nothing needs you") { h.advance(5.1) }
        #expect(h.shows("nothing needs you"), "\(h.screen)")
    }

    @Test("an acknowledgement is kept in the cache: a new dashboard on it shows the item gone")
    func keptAcrossRestart() throws {
        let h = try seeded()
        h.type(.char("n"), .char("x"))
        #expect(h.shows("NEEDS YOU 1"))
        let kept = try #require(h.live.cache).acknowledged()
        #expect(kept["failed:t2"] != nil)
        h.cleanUp()
        let fresh = NeedsYouStore()
        fresh.restore(acknowledged: kept)
        fresh.tasksListed([MeshTask(id: "t2", title: "Invoice export", status: .failed)], clock: .zero, now: Date())
        #expect(fresh.items.isEmpty)
    }

    @Test("on Home, Tab reaches NEEDS YOU// first; x on a selected line acknowledges that line")
    func acknowledgeOnHome() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        // Tab goes round the cards; a card reached by Tab starts on its first row.
        for _ in 0..<8 where !h.live.session.topPaneIs(focus: .needsYou) { h.type(.tab) }
        #expect(h.live.session.topPaneIs(focus: .needsYou))
        #expect(h.shows("▸ FAILED  Invoice export"), "\(h.screen)")
        h.type(.char("x"))
        #expect(h.shows("NEEDS YOU 1"))
        #expect(!h.shows("FAILED  Invoice export"))
        #expect(h.shows("▸ QUESTION  May I migrate"), "the selection moves to the next line: \(h.screen)")
    }
}

extension DashboardSession {
    /// Whether Home is on top with `focus` on that card (a test's view of the pane's state).
    func topPaneIs(focus: HomeCardKind) -> Bool { (topPane as? HomePane)?.focus == focus }
}

/// `settings.notify_command` through the real launcher: a script of the test's own records
/// what it was given, once per new item, never for what was there before the start.
@MainActor @Suite("Needs you: the operator's notify_command")
struct NotifyCommandTests {
    @Test("a new failure runs the command once, with the item as arguments and JSON on stdin")
    func runsOncePerItem() throws {
        let dir = TempDirectory()
        let out = dir.sub("calls.txt")
        let script = dir.sub("hook.sh")
        try "#!/bin/sh\n{ printf 'ARGS'; printf ' [%s]' \"$@\"; echo; cat; } >> '\(out)'\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o700)
        let h = try ControllerHarness(configure: {
            $0.notifyCommand = .success(NotifyCommand(words: [script, "--from-makima"]))
        })
        defer { h.cleanUp() }
        let failed = TaskEvent(
            eventID: 9, taskID: "t-new", seq: 1, type: .status, ts: Date(),
            payload: .status(status: .failed, previous: .running, reason: "exit 1"), arrivedAt: Date())
        h.post(.events([failed]))
        h.post(.events([failed]))
        // The child runs on the launcher's thread: wait (bounded) until it has written.
        let giveUp = Date().addingTimeInterval(30)
        while Date() < giveUp, h.live.children.isBusy || !FileManager.default.fileExists(atPath: out) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let calls = try String(contentsOfFile: out, encoding: .utf8)
        #expect(calls.components(separatedBy: "ARGS").count == 2, "one call: \(calls)")
        #expect(calls.contains("[--from-makima] [failed] [failed:t-new] [t-new] [makima://task/t-new]"), "\(calls)")
        let json = try #require(calls.split(separator: "\n").first { $0.hasPrefix("{") })
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(object?["id"] == "failed:t-new" && object?["kind"] == "failed")
        #expect(!calls.contains("mk_controller_test_0001"), "the key never reaches the command")
    }

    @Test("a config value that is not a list of words is refused with a clear message")
    func refusesMalformed() {
        #expect(throws: NotifyCommand.Problem.notAList) { try NotifyCommand.from(.string("notify-send hi")) }
        #expect(throws: NotifyCommand.Problem.badWord(1)) {
            try NotifyCommand.from(.array([.string("notify-send"), .string("a\u{1B}[2J")]))
        }
        #expect(throws: NotifyCommand.Problem.notAList) { try NotifyCommand.from(.array([])) }
        #expect((try? NotifyCommand.from(nil)) == .some(nil))
    }
}
