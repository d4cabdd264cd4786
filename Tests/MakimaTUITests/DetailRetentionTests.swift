import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The stores keep a bounded number of details (`BoundedMap`); the ones the panes on the
/// stack read stay, and a pane opened again on an evicted object fetches it again.
@MainActor @Suite("Detail retention: bounded details, open panes keep theirs")
struct DetailRetentionTests {
    /// Details of tasks nobody has open, as toasts' title lookups bring them.
    func lookups(_ range: Range<Int>) -> [SyncUpdate] {
        range.map { .task(MeshTask(id: "lookup-\($0)", title: "looked up \($0)", status: .completed)) }
    }

    func outputLine(_ seq: Int) -> SyncUpdate {
        .events([
            TaskEvent(
                eventID: Int64(seq), taskID: "t9", seq: seq, type: .output,
                payload: .output(text: "output line \(seq)\n", stream: "stdout"))
        ])
    }

    @Test("an open task view keeps its task's detail through a flood of others, and refetches it once evicted")
    func openTaskSurvivesEviction() throws {
        // A task in no list: only its fetched detail names its daemon.
        let h = try ControllerHarness(deepLink: .task("t9"))
        defer { h.cleanUp() }
        let capacity = BoundedMap<String, MeshTask>.defaultCapacity
        h.post(.task(MeshTask(id: "t9", title: "Orphan task", status: .running, daemonID: "d-unlisted-7")))
        h.post(outputLine(1))
        #expect(h.shows("DAEMON d-unlisted-7"), "\(h.screen)")
        for u in lookups(0..<(capacity * 2)) { h.engine.outbox.post(u) }
        h.step()
        h.post(outputLine(2))
        #expect(h.live.hub.tasks.details.count == capacity, "bounded")
        #expect(h.live.hub.tasks.details["t9"] != nil, "the open view's task is kept")
        #expect(h.shows("output line 2"), "\(h.screen)")
        #expect(h.shows("DAEMON d-unlisted-7"), "the header still has the task's facts: \(h.screen)")
        #expect(!h.shows("not found"))

        // Closed, it is one detail among others; opened again, it is fetched again.
        h.type(.escape)
        #expect(!(h.session.topPane is TaskOutputPane))
        for u in lookups(capacity * 2..<(capacity * 4)) { h.engine.outbox.post(u) }
        h.step()
        #expect(h.live.hub.tasks.details["t9"] == nil, "evicted once no pane reads it")
        h.live.handle(.open(.task("t9")))
        h.step()
        #expect(h.engine.details.filter { $0 == .task("t9") }.count == 2, "asked for again: \(h.engine.details)")
        #expect(h.session.topPane is TaskOutputPane)
        #expect(!h.shows("not found"), "\(h.screen)")
        h.post(.task(MeshTask(id: "t9", title: "Orphan task", status: .completed, daemonID: "d-unlisted-7")))
        #expect(h.shows("DAEMON d-unlisted-7"), "\(h.screen)")
    }

    @Test("a contract detail under a task view keeps its contract while the task view is on top")
    func paneUnderTheTopKeepsItsDetail() throws {
        let h = try ControllerHarness(deepLink: .contract("c9"))
        defer { h.cleanUp() }
        let capacity = BoundedMap<String, Contract>.defaultCapacity
        h.post(.contract(Contract(id: "c9", name: "Orphan contract", phase: "executing", status: .active)))
        #expect(h.shows("CONTRACT Orphan contract"), "\(h.screen)")
        h.live.handle(.open(.task("t9")))
        h.step()
        let flood = (0..<(capacity * 2)).map {
            SyncUpdate.contract(Contract(id: "other-\($0)", name: "other", phase: "", status: .active))
        }
        for u in flood { h.engine.outbox.post(u) }
        h.step()
        #expect(h.live.hub.contracts.details.count == capacity)
        #expect(h.live.hub.contracts.details["c9"] != nil, "kept: its pane is on the stack")
        h.type(.escape)
        #expect(h.shows("CONTRACT Orphan contract"), "\(h.screen)")
        #expect(!h.shows("not found"))
    }
}
