import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// How a needs-you item reaches the operator through the real controller on a memory
/// terminal: a notification for the kinds no event announces (a gate, a daemon gone offline
/// holding tasks), once per item; the title carrying the count; no desktop notification to a
/// terminal that says it has focus.
@MainActor @Suite("Needs you: notifications, the title, focus")
struct NeedsYouReachTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    static func gate(_ task: String, _ seq: Int, at: Date = Date()) -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: task, seq: seq, type: .completionGate, ts: at,
            payload: .completionGate(ready: true, summary: "ready to merge", body: ""), arrivedAt: at)
    }

    static func daemons(_ list: [Daemon]) -> SyncUpdate {
        .list(.daemons, .daemons(list), fetchedAt: Date(), fromCache: false)
    }

    static let offline = Daemon(
        id: "d7", hostname: "build-box", status: .offline, lastHeartbeat: Date(),
        runningTasks: 2)

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("a gate read ready notifies once, however often it is read again")
    func gateOnce() throws {
        let h = try ControllerHarness(configure: DesktopNotificationControllerTests.insideTmux)
        defer { h.cleanUp() }
        h.post(.events([Self.gate("t1", 3)]))
        #expect(h.shows("Completion gate ready: ready to merge"), "\(h.screen)")
        #expect(Self.text(h.terminal.backend.controlBytes).contains("Completion gate ready"))
        let written = h.terminal.backend.controlBytes.count
        h.post(.events([Self.gate("t1", 3)]), .events([Self.gate("t1", 4)]))
        for _ in 0..<3 { h.advance(5.1) }
        #expect(h.terminal.backend.controlBytes.count == written, "the same item is not notified again")
    }

    @Test("a daemon gone offline holding tasks notifies; o shows its row in Daemons")
    func daemonOffline() throws {
        let h = try ControllerHarness(configure: DesktopNotificationControllerTests.insideTmux)
        defer { h.cleanUp() }
        h.post(Self.daemons([Self.offline, Daemon(id: "d8", hostname: "idle-box", status: .online)]))
        #expect(h.shows("Daemon offline holding tasks: build-box"), "\(h.screen)")
        h.type(.char("o"))
        #expect(h.live.session.topPane.section == .daemons, "\(h.screen)")
        #expect(h.shows("build-box"))
        // Listed again (the list is read every 30 s while shown): no second notification.
        let written = h.terminal.backend.controlBytes.count
        h.post(Self.daemons([Self.offline]))
        #expect(h.terminal.backend.controlBytes.count == written)
    }

    @Test("an item from before the dashboard started is listed, not notified")
    func oldItemsStayQuiet() throws {
        let h = try ControllerHarness(configure: DesktopNotificationControllerTests.insideTmux)
        defer { h.cleanUp() }
        h.post(.events([Self.gate("t1", 3, at: Date().addingTimeInterval(-3_600))]))
        #expect(h.shows("NEEDS YOU 1"), "\(h.screen)")
        #expect(!h.shows("Completion gate ready"))
        #expect(h.terminal.backend.controlBytes.isEmpty)
    }

    @Test("the terminal title carries the count, and nothing of a label but its text")
    func titleCount() throws {
        let h = try ControllerHarness(configure: DesktopNotificationControllerTests.insideTmux)
        defer { h.cleanUp() }
        let plain = try #require(h.terminal.backend.title)
        #expect(plain.hasPrefix("Makima"), "\(plain)")
        h.post(.events([Self.gate("t1", 3), Self.gate("t2", 5)]))
        #expect(h.terminal.backend.title == "(2) " + plain)
        let bytes = TerminalTitle.sequence("evil\u{1B}]0;x\u{07}\u{9B}31m\nlabel")
        #expect(Self.text(bytes) == "\u{1B}]2;evil]0;x31mlabel\u{07}")
        #expect(TerminalTitle.sequence(String(repeating: "é", count: 500)).count == 4 + 2 * TerminalTitle.longest + 1)
    }

    @Test("focus in: the toast alone; focus out: the desktop notification too")
    func focusDecidesTheDesktop() throws {
        let h = try ControllerHarness(configure: DesktopNotificationControllerTests.insideTmux)
        defer { h.cleanUp() }
        h.terminal.send(Array("\u{1B}[I".utf8))
        h.step()
        h.post(.events([Self.gate("t1", 3)]))
        #expect(h.shows("Completion gate ready"), "\(h.screen)")
        #expect(h.terminal.backend.controlBytes.isEmpty, "the operator is looking: no desktop notification")
        h.terminal.send(Array("\u{1B}[O".utf8))
        h.step()
        h.post(.events([Self.gate("t2", 5)]))
        #expect(Self.text(h.terminal.backend.controlBytes).contains("Completion gate ready"))
    }

    @Test("nothing for what the operator is looking at: the focused task view of that task")
    func nothingForTheTaskInView() throws {
        let h = try ControllerHarness(configure: DesktopNotificationControllerTests.insideTmux)
        defer { h.cleanUp() }
        let tasks = [MeshTask(id: "t1", title: "docs job", status: .running)]
        h.post(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: Date(), fromCache: false))
        h.type(.char("3"))
        h.type(.enter)
        #expect(h.session.topPane.shownLink == .task("t1"))
        h.terminal.send(Array("\u{1B}[I".utf8))
        h.step()
        h.post(.events([Self.gate("t1", 3)]))
        #expect(!h.shows("Completion gate ready"), "\(h.screen)")
        #expect(h.terminal.backend.controlBytes.isEmpty)
        // Focus gone: the same view may not be looked at, and another task's gate is not in view.
        h.terminal.send(Array("\u{1B}[O".utf8))
        h.step()
        h.post(.events([Self.gate("t1", 4)]), .events([Self.gate("t2", 5)]))
        #expect(Self.text(h.terminal.backend.controlBytes).contains("Completion gate ready"))
    }
}
