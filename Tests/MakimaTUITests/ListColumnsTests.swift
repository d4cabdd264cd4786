import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

/// Column headers, sort orders and live re-sorting of the list panes.
@MainActor @Suite("List panes: column headers, sorting, live order")
struct ListColumnsTests {
    let now = MeshFixture.now

    func draw(_ pane: inout ListPane, width: Int = 120, height: Int = 12) -> CellBuffer {
        var b = CellBuffer(width: width, height: height)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        return b
    }

    @Test("tasks scoped to a contract named `Contract 0` say CONTRACT once in the header")
    func contractScopeSaysContractOnce() {
        let hub = StoreHub()
        hub.apply(
            .list(
                .contracts(status: nil),
                .contracts([Contract(id: "c0", name: "Contract 0", phase: "build", status: .active)]), fetchedAt: now,
                fromCache: false))
        let m = ListPaneModels.tasks(hub, status: .pending, contractID: "c0", now: now)
        #expect(m.detail?.hasPrefix("PENDING · CONTRACT 0") == true, "\(m.detail ?? "")")
        let billing = ListPaneModels.contractLabel("Billing")
        #expect(billing == "contract Billing")
    }

    @Test("tasks: headers over the columns; newest activity first; a status event moves a row to the top")
    func tasksOrderAndHeaders() {
        let hub = StoreHub()
        hub.apply(.list(.daemons, .daemons(MeshFixture.daemons), fetchedAt: now, fromCache: false))
        hub.apply(.list(.contracts(status: nil), .contracts(MeshFixture.contracts), fetchedAt: now, fromCache: false))
        let tasks = [
            MeshTask(
                id: "a", contractID: "c1", title: "Alpha", status: .running, daemonID: "d1",
                updatedAt: now.addingTimeInterval(-300)),
            MeshTask(id: "b", title: "Bravo", status: .pending, updatedAt: now.addingTimeInterval(-60)),
            MeshTask(id: "c", title: "Charlie alpha-ish", status: .cancelled, updatedAt: now.addingTimeInterval(-600)),
        ]
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: now, fromCache: false))
        var m = ListPaneModels.tasks(hub, status: nil, now: now)
        #expect(m.rows.map(\.id) == ["b", "a", "c"])
        var pane = ListPane(id: .tasks, model: m)
        var b = draw(&pane, width: 140)
        #expect(b.trimmedLine(2).hasPrefix("   TITLE"))
        #expect(b.line(2).cells(before: "STATUS") == b.line(4).cells(before: "RUNNING"), "header over its column")
        #expect(
            b.line(4).contains("kestrel.mesh.local") && b.line(4).contains("Old one"), "daemon and contract columns")
        #expect(b.style(atX: b.line(5).cells(before: "CANCELLED"), y: 5) == StatusStyle.taskStyle(.cancelled))
        // A live status change (with its time) re-sorts: Charlie is now the newest.
        hub.apply(
            .events([
                TaskEvent(
                    eventID: 1, taskID: "c", seq: 1, type: .status, ts: now,
                    payload: .status(status: .running, previous: .cancelled, reason: nil))
            ]))
        m = ListPaneModels.tasks(hub, status: nil, now: now)
        #expect(m.rows.map(\.id) == ["c", "b", "a"])
        pane.update(m)
        b = draw(&pane, width: 140)
        #expect(
            b.trimmedLine(3).hasSuffix("Charlie alpha-ish                                     RUNNING     0s ago"),
            "the newest row is drawn first")
        #expect(b.trimmedLine(4).hasPrefix(" ▸ Bravo"), "the selection follows its row")
        // `/` matches titles only: "alpha" finds Alpha and Charlie alpha-ish, not the contract column.
        #expect(m.rows.filter { $0.searchText.localizedCaseInsensitiveContains("old one") }.isEmpty)
    }

    @Test("tasks at 80 columns: the title narrows (with …) so daemon and contract still show, aligned")
    func tasksAtEightyColumns() {
        let hub = StoreHub()
        hub.apply(.list(.daemons, .daemons(MeshFixture.daemons), fetchedAt: now, fromCache: false))
        hub.apply(.list(.contracts(status: nil), .contracts(MeshFixture.contracts), fetchedAt: now, fromCache: false))
        let long = "A very long task title that would take every cell of an eighty column terminal"
        let tasks = [
            MeshTask(
                id: "a", contractID: "c1", title: long, status: .running, daemonID: "d1",
                updatedAt: now.addingTimeInterval(-300)),
            MeshTask(id: "b", title: "Bravo", status: .pending, updatedAt: now.addingTimeInterval(-60)),
        ]
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: now, fromCache: false))
        var pane = ListPane(id: .tasks, model: ListPaneModels.tasks(hub, status: nil, now: now))
        let b = draw(&pane, width: 80)
        #expect(b.isWellFormed)
        #expect(b.line(2).contains("DAEMON") && b.line(2).contains("CONTRACT"), "\(b.line(2))")
        let row = b.lines.firstIndex { $0.contains("A very long") }!
        #expect(b.lines[row].contains("kestrel.mesh.local"), "\(b.lines[row])")
        #expect(b.lines[row].contains("…"), "the title is cut with an ellipsis")
        #expect(b.line(2).cells(before: "STATUS") == b.line(row).cells(before: "RUNNING"), "header over its column")
        let bravo = b.lines.firstIndex { $0.contains("Bravo") }!
        #expect(b.line(bravo).cells(before: "PENDING") == b.line(row).cells(before: "RUNNING"), "rows aligned")
        // Wide, nothing is cut.
        let wide = draw(&pane, width: 160)
        #expect(wide.lines.contains { $0.contains(String(long.prefix(50))) })
    }

    @Test("daemons: s steps through host, status, heartbeat and load orders, then back to the rows' own")
    func daemonSorts() {
        let hub = StoreHub()
        hub.apply(.list(.daemons, .daemons(MeshFixture.daemons), fetchedAt: now, fromCache: false))
        var pane = ListPane(id: .daemons, model: ListPaneModels.daemons(hub, now: now))
        func order() -> [String] { pane.list.visibleRows.map(\.id) }
        #expect(order() == ["d1", "d2", "d3"])
        let b = draw(&pane)
        #expect(b.trimmedLine(2).hasPrefix("   HOST"))
        _ = pane.handle(.nextSort)
        #expect(order() == ["d3", "d1", "d2"], "host: falcon, kestrel, osprey")
        #expect(draw(&pane).trimmedLine(0).hasSuffix("BY HOST"))
        _ = pane.handle(.nextSort)
        #expect(order() == ["d3", "d2", "d1"], "status: offline, busy, online")
        _ = pane.handle(.nextSort)
        #expect(order() == ["d2", "d3", "d1"], "heartbeat: never, 2h ago, 12s ago")
        _ = pane.handle(.nextSort)
        #expect(order().first == "d1", "load: 2/4 is the busiest")
        _ = pane.handle(.nextSort)
        #expect(order() == ["d1", "d2", "d3"])
        var tasks = ListPane(id: .tasks)
        if case .ignored = tasks.handle(.nextSort) {} else { Issue.record("tasks have no sort orders") }
    }

    @Test("listen: a session without a title is named by its start time, never its id")
    func listenTitles() {
        let hub = StoreHub()
        hub.apply(
            .list(
                .listenSessions(limit: nil),
                .listenSessions([ListenSession(id: "ls-raw-id", startedAt: now), ListenSession(id: "ls-2")]),
                fetchedAt: now, fromCache: false))
        let rows = ListPaneModels.listen(hub, now: now).rows.map(\.line.text)
        #expect(rows[0].hasPrefix("session of 20"))
        #expect(!rows[0].contains("ls-raw-id"))
        #expect(rows[1].hasPrefix("untitled session"))
    }
}
