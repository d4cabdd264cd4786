import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// What is on screen is a function of observed state: each test changes a store (or the
/// source Settings reads) without going through the controller's `apply` or an action, and
/// the pane on screen follows on the next frame, with nothing marked by hand.
@MainActor @Suite("Redraw path: panes follow the stores they read")
struct RedrawPathTests {
    func output(_ seq: Int, _ text: String, task: String = "t1") -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: task, seq: seq, type: .output, payload: .output(text: text, stream: "stdout"))
    }

    /// Task t1's output view on screen.
    func openTaskView() throws -> ControllerHarness {
        let h = try ControllerHarness()
        h.post(
            .list(
                .tasks(status: nil, contractID: nil), .tasks([MeshTask(id: "t1", title: "docs job", status: .running)]),
                fetchedAt: Date(), fromCache: false))
        h.type(.char("3"))
        h.type(.enter)
        #expect(h.session.topPane is TaskOutputPane)
        return h
    }

    func networkRow(_ h: ControllerHarness) -> StatusRow? {
        (h.session.topPane as? HomePane)?.model.statusRows.first { $0.label == "Network" }
    }

    @Test("the task view shows output written to its store, with no apply and no flag set")
    func taskViewFollowsItsStore() throws {
        let h = try openTaskView()
        defer { h.cleanUp() }
        h.live.hub.apply(.events([output(1, "first-line-of-output\n")]))
        h.step()
        #expect(h.shows("first-line-of-output"), "\(h.screen)")
        h.live.hub.apply(.task(MeshTask(id: "t1", title: "docs job", status: .completed)))
        h.step()
        #expect(h.shows("COMPLETED"), "\(h.screen)")
    }

    @Test("a burst of batches for the task view costs one frame, which shows all of it")
    func taskViewBurstIsOneFrame() throws {
        let h = try openTaskView()
        defer { h.cleanUp() }
        for seq in 1...40 { h.engine.outbox.post(.events([output(seq, "burst-\(seq)\n")])) }
        let drew = h.step()
        #expect(drew)
        #expect(h.shows("burst-40"), "\(h.screen)")
    }

    @Test("output of a task whose output is not kept draws no frame while the task view is shown")
    func otherTasksOutputDrawsNothing() throws {
        let h = try openTaskView()
        defer { h.cleanUp() }
        h.post(.events([output(1, "here\n")]))  // (the first batch also pins the task's detail)
        let before = h.terminal.backend.flushCount
        h.post(.events([output(1, "elsewhere\n", task: "t9")]))
        #expect(h.terminal.backend.flushCount == before)
        h.post(.events([output(2, "here again\n")]))
        #expect(h.terminal.backend.flushCount == before + 1)
        #expect(h.shows("here again"), "\(h.screen)")
    }

    @Test("output of a task not on screen draws no frame while Home is shown")
    func hiddenTaskViewDrawsNothing() throws {
        let h = try openTaskView()
        defer { h.cleanUp() }
        h.type(.char("1"))
        h.stepAfterActivityRead()
        let before = h.terminal.backend.flushCount
        h.post(.events([output(1, "unseen\n")]))
        #expect(h.terminal.backend.flushCount == before)
    }

    @Test("Home's Network row is read from the connection store: link states, a refused key, signed out")
    func networkRowFromTheStore() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(.connection(ConnectionStatus(phase: .connecting)))
        #expect(networkRow(h) == StatusRow("Network", "CONNECTING", .warn))
        h.post(.connection(ConnectionStatus(phase: .online)))
        #expect(networkRow(h) == StatusRow("Network", "ONLINE", .ok))
        h.post(.connection(ConnectionStatus(phase: .offline(nextRetry: Date().addingTimeInterval(5)))))
        #expect(networkRow(h) == StatusRow("Network", "OFFLINE", .warn))
        h.post(.unauthorized(message: "401"))
        #expect(networkRow(h) == StatusRow("Network", "KEY REFUSED", .danger))
        // The halted engine's last word does not hide the refused key.
        h.post(.connection(ConnectionStatus(phase: .offline(nextRetry: nil))))
        #expect(networkRow(h) == StatusRow("Network", "KEY REFUSED", .danger))
        // The store alone moves it: nothing pushes the row.
        h.live.hub.connection.access = .signedOut
        h.step()
        #expect(networkRow(h) == StatusRow("Network", "SIGNED OUT", .warn))
        #expect(h.shows("SIGNED OUT"), "\(h.screen)")
    }

    @Test("without a server Home's Network row says so, from the store")
    func networkRowNotConfigured() throws {
        let h = try ControllerHarness(access: .notConfigured(message: "no server configured"))
        defer { h.cleanUp() }
        #expect(networkRow(h) == StatusRow("Network", "NOT CONFIGURED", .warn))
    }

    @Test("Settings follows the mouse, the theme and the notification preferences where they live")
    func settingsFollowsItsSources() throws {
        let h = try ControllerHarness(signIn: ScriptedSignIn())
        defer { h.cleanUp() }
        h.type(.char("7"))
        #expect(h.shows("on · Enter: off"), "\(h.screen)")
        h.session.setMouseReporting(false)
        h.step()
        #expect(h.shows("off · Enter: on"), "\(h.screen)")
        let bell = try #require(h.terminal.backend.lines.first { $0.contains("› NOTIFY: BELL") })
        #expect(bell.trimmingCharacters(in: .whitespaces).hasSuffix("on"), "\(bell)")
        h.live.notificationController.notifier.preferences.bell = false
        h.step()
        let row = try #require(h.terminal.backend.lines.first { $0.contains("› NOTIFY: BELL") })
        #expect(row.trimmingCharacters(in: .whitespaces).hasSuffix("off"), "\(row)")
        _ = h.session.applyTheme("light")
        h.step()
        #expect(h.shows("light · Enter: next theme"), "\(h.screen)")
    }
}
