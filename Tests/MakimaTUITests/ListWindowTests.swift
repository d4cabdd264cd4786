import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

/// The Tasks pane reads its rows as a window over the task table: a change out of view
/// leaves the frame as it was.
@MainActor @Suite("List panes: rows as a window over the task table")
struct ListWindowTests {
    let now = MeshFixture.now

    func statusEvent(_ n: Int64, _ id: String, _ status: TaskStatus, at: Date?) -> SyncUpdate {
        .events([
            TaskEvent(
                eventID: n, taskID: id, seq: Int(n), type: .status, ts: at,
                payload: .status(status: status, previous: nil, reason: nil))
        ])
    }

    func shownPane(_ hub: StoreHub) -> ListPane {
        var pane = ListPane(id: .tasks, model: ListPaneModels.tasks(hub, status: nil, now: now))
        var b = CellBuffer(width: 120, height: 12)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        return pane
    }

    @Test("a status change to a row out of view changes nothing drawn; one in view does")
    func offScreenChangeDrawsNothing() {
        let hub = StoreHub()
        // 1,000 tasks, newest first t0, t1, …; the pane shows the first few.
        let tasks = (0..<1_000).map {
            MeshTask(
                id: "t\($0)", title: "task \($0)", status: .completed, updatedAt: now.addingTimeInterval(-Double($0)))
        }
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: now, fromCache: false))
        var pane = shownPane(hub)
        #expect(pane.list.visibleCount == 1_000)
        // t900 fails at the time it already had: it stays at row 900, far below the view.
        hub.apply(statusEvent(1, "t900", .failed, at: now.addingTimeInterval(-900)))
        var changed = pane.update(ListPaneModels.tasks(hub, status: nil, now: now))
        #expect(!changed, "nothing in view changed")
        #expect(pane.list.selectedRow?.id == "t0")
        // t1 fails: its row is in view.
        hub.apply(statusEvent(2, "t1", .failed, at: now.addingTimeInterval(-1)))
        changed = pane.update(ListPaneModels.tasks(hub, status: nil, now: now))
        #expect(changed, "a row in view changed")
        // t500 starts now: it moves to the top, into view.
        hub.apply(statusEvent(3, "t500", .running, at: now.addingTimeInterval(1)))
        changed = pane.update(ListPaneModels.tasks(hub, status: nil, now: now))
        #expect(changed)
        #expect(pane.list.rows.prefix(2).map(\.id) == ["t500", "t0"])
        #expect(pane.list.selectedRow?.id == "t0", "the selection follows its row")
    }

    @Test("the filter finds rows of the window, and keeps matching after a store change")
    func filterOverWindow() {
        let hub = StoreHub()
        let tasks = (0..<300).map {
            MeshTask(
                id: "t\($0)", title: "task \($0)", status: .completed, updatedAt: now.addingTimeInterval(-Double($0)))
        }
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: now, fromCache: false))
        var pane = shownPane(hub)
        _ = pane.handle(.filter)
        for c in "task 29" { _ = pane.edit(.insert(c)) }
        #expect(
            pane.list.visibleRows.map(\.id) == [
                "t29", "t290", "t291", "t292", "t293", "t294", "t295", "t296", "t297", "t298", "t299",
            ])
        hub.apply(statusEvent(1, "t295", .running, at: now.addingTimeInterval(5)))
        pane.update(ListPaneModels.tasks(hub, status: nil, now: now))
        #expect(pane.list.visibleRows.first?.id == "t295")
        #expect(pane.list.visibleCount == 11)
    }
}
