import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// Notifications through the whole controller on a memory terminal: the desktop notification's
/// bytes reach the terminal through its write path (the one `NcursesBackend` writes to stdout
/// with), beside the toast and the bell.
@MainActor @Suite("Desktop notifications through the controller")
struct DesktopNotificationControllerTests {
    /// The notifier asks the process's locale at each delivery, as the dashboard sets it at
    /// start (`TerminalLocale.configure`): a UTF-8 one here, whichever test ran first.
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    static func failed(_ i: Int, _ task: String) -> MeshNotification {
        MeshNotification(
            id: EventIdentity(taskID: "t", seq: i), kind: .taskFailed, title: "Task failed", body: "\(task) — exit 1",
            link: .task(task),
            at: Date())
    }

    /// Inside tmux on a terminal, with no tmux binary on PATH (no helper child in a unit test).
    static func insideTmux(_ setup: inout LiveSetup) {
        setup.environment["TERM"] = "tmux-256color"
        setup.environment["TMUX"] = "/tmp/tmux-test/default,1,0"
        setup.environment["PATH"] = "/nonexistent"
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Tasks t<first>…t<last> in the stores, so toasts need not wait for their titles.
    static func know(_ h: ControllerHarness, _ ids: ClosedRange<Int>) {
        h.post(
            .list(
                .tasks(status: nil, contractID: nil),
                .tasks(ids.map { MeshTask(id: "t\($0)", title: "task \($0)", status: .running) }),
                fetchedAt: Date(), fromCache: false))
    }

    @Test("a failed task: toast, bell, and OSC 777 + OSC 9 in tmux's passthrough, named by its title")
    func failedTask() throws {
        let h = try ControllerHarness(configure: Self.insideTmux)
        defer { h.cleanUp() }
        h.post(
            .list(
                .tasks(status: .running, contractID: nil),
                .tasks([MeshTask(id: "t1", title: "deploy api", status: .running)]),
                fetchedAt: Date(), fromCache: false))
        h.post(.notifications([Self.failed(1, "t1")]))
        #expect(h.shows("Task failed: deploy api — exit 1"), "\(h.screen)")
        #expect(h.terminal.bells == 1)
        #expect(
            Self.text(h.terminal.backend.controlBytes)
                == "\u{1B}Ptmux;\u{1B}\u{1B}]777;notify;Task failed;deploy api — exit 1\u{07}\u{1B}\\"
                + "\u{1B}Ptmux;\u{1B}\u{1B}]9;Task failed: deploy api — exit 1\u{07}\u{1B}\\" + "\u{07}")
    }

    @Test("tmux says passthrough is off: the operator is told, and a failed task sends its BEL alone")
    func passthroughOff() throws {
        let h = try ControllerHarness(configure: Self.insideTmux)
        defer { h.cleanUp() }
        Self.know(h, 1...1)
        h.live.tmuxPassthroughAnswered(global: "off\n", pane: "")
        h.advance(0)
        #expect(h.shows("allow-passthrough is off"), "\(h.screen)")
        let home = try #require(h.live.session.topPane as? HomePane)
        #expect(
            home.model.statusRows.contains(StatusRow("Notifications", "bell + tmux message (no passthrough)", .warn)),
            "SYSTEM// keeps saying it after the toast")
        h.post(.notifications([Self.failed(1, "t1")]))
        #expect(h.terminal.backend.controlBytes == [0x07])
        // Turned on since (the pane's own value): the OSC goes out again, and the row goes.
        h.live.tmuxPassthroughAnswered(global: "off", pane: "on")
        let rows = (h.live.session.topPane as? HomePane)?.model.statusRows ?? []
        #expect(!rows.contains { $0.label == "Notifications" })
        h.post(.notifications([Self.failed(2, "t1")]))
        h.advance(DesktopNotifier.minimumInterval + 0.1)
        #expect(Self.text(h.terminal.backend.controlBytes).contains("\u{1B}Ptmux;"))
    }

    @Test("200 failures at once: one notification now, one summary after the interval, one bell per batch")
    func flood() throws {
        let h = try ControllerHarness(configure: Self.insideTmux)
        defer { h.cleanUp() }
        Self.know(h, 1...201)
        h.post(.notifications([Self.failed(1, "t1")]))
        let first = h.terminal.backend.controlBytes.count
        h.post(.notifications((2...201).map { Self.failed($0, "t\($0)") }))
        #expect(h.terminal.backend.controlBytes.count == first, "held back while the first is shown")
        h.advance(DesktopNotifier.minimumInterval + 0.1)
        let all = Self.text(h.terminal.backend.controlBytes)
        #expect(all.contains("]777;notify;200 tasks failed;200 tasks failed\u{07}"))
        #expect(all.components(separatedBy: "]777;notify;").count == 3, "two notifications in all")
        #expect(h.terminal.bells == 2)
    }

    @Test("preferences: a kind off is not announced at all; bell and desktop can be off alone")
    func preferences() throws {
        let h = try ControllerHarness {
            Self.insideTmux(&$0)
            $0.notificationPreferences.taskCompleted = false
            $0.notificationPreferences.bell = false
        }
        defer { h.cleanUp() }
        Self.know(h, 1...9)
        h.post(
            .notifications([
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 1), kind: .taskCompleted, title: "Task completed", body: "t9",
                    link: .task("t9"), at: Date())
            ]))
        #expect(!h.shows("Task completed"))
        #expect(h.terminal.backend.controlBytes.isEmpty)
        h.post(.notifications([Self.failed(2, "t2")]))
        #expect(h.shows("Task failed: task 2"))
        #expect(h.terminal.bells == 0)
        #expect(!h.terminal.backend.controlBytes.isEmpty)
        h.live.notificationController.notifier.preferences.desktop = false
        h.advance(5)
        let before = h.terminal.backend.controlBytes.count
        h.post(.notifications([Self.failed(3, "t3")]))
        #expect(h.terminal.backend.controlBytes.count == before)
    }

    @Test("a task whose title is unknown: the desktop notification waits with the toast and names it")
    func waitsForTheTitle() throws {
        let h = try ControllerHarness(configure: Self.insideTmux)
        defer { h.cleanUp() }
        h.post(.notifications([Self.failed(1, "t7")]))
        #expect(h.terminal.backend.controlBytes.isEmpty, "nothing names t7 yet")
        h.post(.task(MeshTask(id: "t7", title: "nightly build", status: .failed)))
        #expect(
            Self.text(h.terminal.backend.controlBytes).contains("]777;notify;Task failed;nightly build — exit 1\u{07}"))
        #expect(!Self.text(h.terminal.backend.controlBytes).contains("t7"))
    }
}
