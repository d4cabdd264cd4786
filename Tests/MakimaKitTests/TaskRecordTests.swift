import Foundation
import Testing

@testable import MakimaKit

/// A task's fields come from its row in the task table; a detail fetched on its own adds its
/// plan, and is shown whole only until the table next changes (or while it has no row).
@MainActor @Suite struct TaskRecordTests {
    let dir = CacheTempDir()
    let t0 = Date(timeIntervalSince1970: 2_000_000)

    @Test func aHeldDetailDoesNotHideWhatALaterListSays() throws {
        let hub = StoreHub()
        hub.apply(
            .detail(
                .task("t1"),
                ListPayload([MeshTask(id: "t1", title: "old title", plan: "the plan", status: .running, updatedAt: t0)])
            ))
        #expect(hub.tasks.table.task(id: "t1")?.title == "old title", "the detail is written into the table")
        let renamed = MeshTask(id: "t1", title: "new title", status: .completed, updatedAt: t0.addingTimeInterval(5))
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks([renamed]), fetchedAt: t0, fromCache: false))
        let shown = try #require(hub.tasks.task(id: "t1"))
        #expect(shown.title == "new title" && shown.status == .completed)
        #expect(shown.plan == "the plan", "the row keeps no plan: the detail's stays")
    }

    @Test func overACacheTheDetailStandsUntilTheTableChanges() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        defer { store.close() }
        try store.saveTaskList(
            [MeshTask(id: "t1", title: "listed", status: .running, updatedAt: t0)], filter: .init(), key: "tasks",
            fetchedAt: t0, whole: true)
        let hub = StoreHub()
        hub.tasks.useTable(TaskTable.reading(store.file))
        defer { hub.tasks.useTable(TaskTable.inMemory()) }
        hub.apply(
            .detail(
                .task("t1"),
                ListPayload([MeshTask(id: "t1", title: "fetched", plan: "the plan", status: .running, updatedAt: t0)])))
        #expect(hub.tasks.task(id: "t1")?.title == "fetched")
        // A later write of the row (a list, a status, the task named again), then its commit
        // announced: the row is the task again, with the detail's plan.
        try store.nameTasks(
            [MeshTask(id: "t1", title: "renamed", status: .completed, updatedAt: t0.addingTimeInterval(9))],
            since: try store.fetchStamp())
        hub.apply(.taskRowsChanged)
        let shown = try #require(hub.tasks.task(id: "t1"))
        #expect(shown.title == "renamed" && shown.status == .completed)
        #expect(shown.plan == "the plan")
    }

    @Test func aDetailTheTableHasNoRowForStandsIn() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        defer { store.close() }
        let hub = StoreHub()
        hub.tasks.useTable(TaskTable.reading(store.file))
        defer { hub.tasks.useTable(TaskTable.inMemory()) }
        hub.apply(.detail(.task("t9"), ListPayload([MeshTask(id: "t9", title: "no row", plan: "p", status: .running)])))
        hub.apply(.taskRowsChanged)
        #expect(hub.tasks.task(id: "t9")?.title == "no row")
    }
}
