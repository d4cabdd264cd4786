import Foundation
import Synchronization
import Testing

@testable import MakimaKit

/// The task table's bounds and its races with the event writer: a full table still follows
/// the server, unknown ids in status events cannot grow it, a list read while statuses were
/// committed never undoes them, a list's plans stay out of the search index, and the
/// output's cap does not count the tasks' own share.
@MainActor @Suite struct TaskTableBoundsTests {
    let dir = CacheTempDir()
    let t0 = Date(timeIntervalSince1970: 2_000_000)
    let oneMB = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 86_400, maxBytes: 1 << 20)

    private func status(_ id: String, _ s: TaskStatus, at: Date?, event: Int64 = 1) -> TaskEvent {
        TaskEvent(
            eventID: event, taskID: id, seq: Int(event), type: .status, ts: at,
            payload: .status(status: s, previous: nil, reason: nil))
    }

    @Test func aListReadWhileAStatusWasCommittedDoesNotUndoIt() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        let running = MeshTask(id: "t1", title: "one", status: .running, updatedAt: t0)
        try store.saveTaskList([running], filter: .init(), key: "tasks", fetchedAt: t0, whole: true)
        let q = ListQuery.tasks(status: nil, contractID: nil)
        // The engine's sink begins the list's pass when the fetch starts.
        let sink = try #require(TaskTableSink(q, cache: store, problems: NoticeGate { _ in }) { _ in })
        try store.appendEvents([status("t1", .completed, at: t0.addingTimeInterval(30))])
        sink.take(ListPage(query: q, items: .tasks([running]), number: 1, received: 1, more: false))
        _ = sink.end(q, bound: nil)
        let table = TaskTable.reading(store.file)
        #expect(table.task(id: "t1")?.status == .completed)
        #expect(table.count(.init(status: .running)) == 0)
        #expect(table.count(.init()) == 1, "the row the event changed is not deleted at the list's end either")
    }

    @Test func statusEventsForUnknownTasksNeverGrowTheTablePastItsShare() throws {
        let store = try CacheStore.open(file: dir.databaseFile, retention: oneMB).store
        let events = (0..<(store.maxTaskRows + 500)).map {
            status("ghost\($0)", .running, at: t0, event: Int64($0 + 1))
        }
        try store.appendEvents(events)
        let rows = try store.withDatabase { db in try db.scalarInt("SELECT count(*) FROM task_rows") ?? 0 }
        #expect(Int(rows) == store.maxTaskRows)
    }

    @Test func fetchedTasksNameTheirRowsKeepNewerStatusesAndNeverGrowTheTablePastItsShare() throws {
        let store = try CacheStore.open(file: dir.databaseFile, retention: oneMB).store
        try store.appendEvents([status("born", .running, at: t0)])
        let since = try store.fetchStamp()
        // An event written while the fetch was under way is newer than its answer.
        try store.appendEvents([status("born", .completed, at: t0.addingTimeInterval(5), event: 2)])
        let fetched = MeshTask(
            id: "born", contractID: "c1", title: "Born live", status: .running, daemonID: "d1", updatedAt: t0)
        let more = (0..<(store.maxTaskRows + 100)).map {
            MeshTask(id: "named\($0)", title: "named \($0)", status: .running, updatedAt: t0)
        }
        try store.nameTasks([fetched] + more, since: since)
        let table = TaskTable.reading(store.file)
        let row = try #require(table.task(id: "born"))
        #expect(row.title == "Born live")
        #expect(row.daemonID == "d1")
        #expect(row.contractID == "c1")
        #expect(row.status == .completed, "the event after the fetch began wins")
        let rows = try store.withDatabase { db in try db.scalarInt("SELECT count(*) FROM task_rows") ?? 0 }
        #expect(Int(rows) == store.maxTaskRows)
    }

    @Test func aFullTableStillLosesWhatTheServerDroppedAndSaysItIsFull() throws {
        let store = try CacheStore.open(file: dir.databaseFile, retention: oneMB).store
        let n = store.maxTaskRows
        let old = (0..<n).map { MeshTask(id: "old\($0)", title: "old \($0)", status: .completed, updatedAt: t0) }
        try store.saveTaskList(old, filter: .init(), key: "tasks", fetchedAt: t0, whole: true)
        let new = (0..<n).map {
            MeshTask(id: "new\($0)", title: "new \($0)", status: .completed, updatedAt: t0.addingTimeInterval(60))
        }
        // The server's whole list, later: the old tasks are gone, newer ones took their place.
        let sink = try #require(
            TaskTableSink(.tasks(status: nil, contractID: nil), cache: store, problems: NoticeGate { _ in }) { _ in })
        sink.take(
            ListPage(
                query: .tasks(status: nil, contractID: nil), items: .tasks(new), number: 1, received: n, more: false))
        let result = sink.end(.tasks(status: nil, contractID: nil), bound: nil)
        #expect(result.bound == .tableFull(n), "the pane is told the table is full")
        #expect(result.count == n && result.items(as: MeshTask.self)?.isEmpty == true, "the rows are the table's")
        let table = TaskTable.reading(store.file)
        #expect(table.rows(.init(), offset: 0, limit: n).allSatisfy { !$0.id.hasPrefix("old") })
        // The next read has room again.
        try store.saveTaskList(new, filter: .init(), key: "tasks", fetchedAt: t0, whole: true)
        #expect(table.rows(.init(), offset: 0, limit: 1).first?.id.hasPrefix("new") == true)
        #expect(table.count(.init()) == n)
    }

    @Test func pagesStreamIntoTheTableAndAreAnnounced() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        let posted = Mutex<[SyncUpdate]>([])
        let q = ListQuery.tasks(status: nil, contractID: nil)
        let sink = try #require(
            TaskTableSink(q, cache: store, problems: NoticeGate { _ in }) { u in posted.withLock { $0.append(u) } })
        let table = TaskTable.reading(store.file)
        let first = (0..<3).map { MeshTask(id: "a\($0)", title: "first \($0)", status: .running, updatedAt: t0) }
        sink.take(ListPage(query: q, items: .tasks(first), number: 1, received: 3, more: true))
        #expect(table.count(.init()) == 3, "the first page is shown before the list ends")
        let second = [MeshTask(id: "b0", title: "second", plan: "## a long plan", status: .queued, updatedAt: t0)]
        sink.take(ListPage(query: q, items: .tasks(second), number: 2, received: 4, more: false))
        let result = sink.end(q, bound: nil)
        #expect(result.bound == nil && result.count == 4)
        #expect(table.count(.init()) == 4)
        #expect(posted.withLock { $0.filter { if case .taskRowsChanged = $0 { true } else { false } }.count } >= 2)
        #expect(try store.taskListFetchedAt(key: q.description) != nil)
    }

    @Test func aListsPlansStayOutOfTheSearchIndex() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        let t = MeshTask(id: "p1", title: "deploy shard", plan: "zebraplanword", status: .running, updatedAt: t0)
        try store.saveTaskList([t], filter: .init(), key: "tasks", fetchedAt: t0, whole: true)
        let meta = try store.withDatabase { db in
            try db.scalarText("SELECT group_concat(meta, '|') FROM search_tasks") ?? ""
        }
        #expect(meta.contains("deploy shard"))
        #expect(!meta.contains("zebraplanword"))
    }

    @Test func theOutputsCapDoesNotCountTheTasksShare() throws {
        let store = try CacheStore.open(file: dir.databaseFile, retention: oneMB).store
        let tasks = (0..<(store.maxTaskRows)).map {
            MeshTask(id: "task-\($0)", title: "Task \($0) 監査 rollback", status: .completed, updatedAt: t0)
        }
        try store.saveTaskList(tasks, filter: .init(), key: "tasks", fetchedAt: t0, whole: true)
        try store.appendEvents(CacheFixtures.outputEvents(task: "live", seqs: 1...20))
        #expect(try store.latestEvents(taskID: "live").count == 20, "output is not evicted for the tasks' rows")
    }
}
