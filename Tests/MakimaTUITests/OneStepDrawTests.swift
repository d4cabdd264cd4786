import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// One turn of the loop (`EventLoop.step`) takes a store change to the screen: for every kind
/// of pane, the change is posted the way the engine posts it, one step is taken, and that step
/// draws the frame that shows it. Nothing is stepped between the change and the look.
@MainActor @Suite("One step: a store change is on screen after one turn, for every pane kind")
struct OneStepDrawTests {
    let at = Date()

    /// Brings `pane` on top with its number key (each key a step of its own).
    func show(_ pane: PaneID, _ h: ControllerHarness) {
        h.type(.char(Character(String(pane.number))))
        #expect(h.session.topPane.id == pane)
    }

    /// Posts `updates` through the engine's outbox, takes exactly one step, and checks that it
    /// drew `text`, absent before.
    func oneStepShows(_ text: String, after updates: [SyncUpdate], _ h: ControllerHarness) {
        #expect(!h.shows(text), "\(h.screen)")
        for u in updates { h.engine.deliver(u) }
        let drew = h.step()
        #expect(drew, "the step drew no frame")
        #expect(h.shows(text), "\(h.screen)")
    }

    func list(_ query: ListQuery, _ payload: ListPayload) -> SyncUpdate {
        .list(query, payload, fetchedAt: at, fromCache: false)
    }

    /// The pane's own first query, with the filter it shows.
    func query(of pane: PaneID, _ h: ControllerHarness) -> ListQuery {
        pane.spec.queries(h.live.navigation.filter(pane), nil)[0]
    }

    @Test("top-level panes: a list answer, or the engine's figures, drawn in one step")
    func topLevelPanes() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let running = MeshTask(id: "t1", title: "Zephyr task", status: .running)
        oneStepShows(
            "1 RUNNING", after: [list(.tasks(status: .running, contractID: nil), .tasks([running]))], h)
        let cases: [(PaneID, String, ListPayload)] = [
            (
                .contracts, "Zephyr contract",
                .contracts([Contract(id: "c1", name: "Zephyr contract", phase: "executing", status: .active)])
            ),
            (.tasks, "Zephyr queued", .tasks([running, MeshTask(id: "t2", title: "Zephyr queued", status: .queued)])),
            (
                .directives, "Zephyr directive",
                .directives([Directive(id: "r1", title: "Zephyr directive", status: "active")])
            ),
            (.daemons, "zephyr-host", .daemons([Daemon(id: "d1", hostname: "zephyr-host", status: .online)])),
            (.listen, "Zephyr standup", .listenSessions([ListenSession(id: "l1", title: "Zephyr standup")])),
        ]
        for (pane, text, payload) in cases {
            show(pane, h)
            oneStepShows(text, after: [list(query(of: pane, h), payload)], h)
        }
        show(.settings, h)
        h.engine.counters.eventsApplied = 424_242
        oneStepShows("424242", after: [.taskRowsChanged], h)
    }

    @Test("detail panes: the detail's answer drawn in one step")
    func detailPanes() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let contract = DeepLink(.contract, "c1")
        let directive = DeepLink(.directive, "r1")
        // A contract and a transcript are fetched alone; a directive is read from its list.
        let cases: [(DeepLink, String, SyncUpdate)] = [
            (
                contract, "Zephyr contract",
                .detail(
                    contract, .contracts([Contract(id: "c1", name: "Zephyr contract", phase: "x", status: .active)]))
            ),
            (
                directive, "Zephyr directive",
                list(
                    .directives(pendingOnly: false),
                    .directives([Directive(id: "r1", title: "Zephyr directive", status: "active")]))
            ),
            (
                .listen("l1"), "Zephyr standup",
                .detail(.listen("l1"), .listenSessions([ListenSession(id: "l1", title: "Zephyr standup")]))
            ),
        ]
        for (link, text, update) in cases {
            h.live.navigation.open(link)
            h.step()
            #expect(h.session.topPane.shownLink == link, "\(h.screen)")
            oneStepShows(text, after: [update], h)
            h.type(.escape)
        }
    }

    @Test("the task output view: streamed output drawn in one step")
    func taskOutput() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(
            list(.tasks(status: nil, contractID: nil), .tasks([MeshTask(id: "t1", title: "docs", status: .running)])))
        h.live.navigation.open(DeepLink(.task, "t1"))
        h.step()
        #expect(h.session.topPane is TaskOutputPane)
        let piece = TaskEvent(
            eventID: 7, taskID: "t1", seq: 1, type: .output, ts: at,
            payload: .output(text: "zephyr-output-line\n", stream: "stdout"))
        oneStepShows("zephyr-output-line", after: [.events([piece])], h)
    }
}
