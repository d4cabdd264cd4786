import Foundation
import Testing

@testable import MakimaKit

/// Task lists as queries over the cache's task table: written by passes of pages and by status
/// events (the writer's side, `CacheStore`), read as windows through a connection of its own
/// (`TaskTable`), on a real SQLite file.
@MainActor @Suite struct TaskTableTests {
    let dir = CacheTempDir()
    let t0 = Date(timeIntervalSince1970: 2_000_000)

    private func openStore() throws -> CacheStore { try CacheStore.open(file: dir.databaseFile).store }

    private func task(_ n: Int, _ status: TaskStatus = .completed, contract: String? = nil, age: Double? = nil)
        -> MeshTask
    {
        MeshTask(
            id: "t\(n)", contractID: contract, title: "Task \(n) · 監査", status: status,
            updatedAt: t0.addingTimeInterval(-(age ?? Double(n))))
    }

    private func status(_ id: String, _ s: TaskStatus, at: Date?, event: Int64 = 1) -> TaskEvent {
        TaskEvent(
            eventID: event, taskID: id, seq: Int(event), type: .status, ts: at,
            payload: .status(status: s, previous: nil, reason: nil))
    }

    /// Writes `tasks` as one pass of `filter` in pages of `page`.
    private func pass(
        _ store: CacheStore, _ tasks: [MeshTask], _ filter: TasksStore.Filter = .init(), page: Int = 2,
        whole: Bool = true
    ) throws {
        var p = try store.beginTaskPass(filter, key: "tasks")
        for start in stride(from: 0, to: tasks.count, by: page) {
            try store.writeTaskPage(Array(tasks[start..<min(start + page, tasks.count)]), into: &p)
        }
        try store.finishTaskPass(p, fetchedAt: t0, whole: whole)
    }

    @Test("pages arriving out of order read back in the pane's order, newest first, ties by id; counts per filter")
    func windowsInOrderAfterPages() throws {
        let store = try openStore()
        let tasks = [
            task(3, .running, contract: "c1"), task(1), task(5, contract: "c1"), task(2, .running),
            task(4), MeshTask(id: "t0", status: .queued), MeshTask(id: "tie-b", status: .failed, updatedAt: t0),
            MeshTask(id: "tie-a", status: .failed, updatedAt: t0),
        ]
        try pass(store, tasks, page: 3)
        let table = TaskTable.reading(store.file)
        #expect(table.rows(.init(), offset: 0, limit: 100).map(\.id) == tasks.sorted(by: TasksStore.before).map(\.id))
        #expect(
            table.rows(.init(), offset: 0, limit: 100).map(\.id) == [
                "tie-a", "tie-b", "t1", "t2", "t3", "t4", "t5", "t0",
            ])
        #expect(table.rows(.init(), offset: 2, limit: 3).map(\.id) == ["t1", "t2", "t3"])
        #expect(table.count(.init()) == 8)
        #expect(table.count(.init(status: .running)) == 2)
        #expect(table.count(.init(contractID: "c1")) == 2)
        #expect(table.count(.init(status: .running, contractID: "c1")) == 1)
        #expect(table.count(.init(limit: 3)) == 3)
        #expect(table.rows(.init(status: .running), offset: 0, limit: 10).map(\.id) == ["t2", "t3"])
        #expect(table.position(of: "t3", in: .init()) == 4)
        #expect(table.position(of: "t0", in: .init()) == 7)
        #expect(table.position(of: "t3", in: .init(status: .running)) == 1)
        #expect(table.position(of: "t1", in: .init(status: .running)) == nil)
        #expect(table.task(id: "t5")?.contractID == "c1")
        #expect(try store.taskListFetchedAt(key: "tasks") == t0)
    }

    @Test("status events move rows in the writer's transaction; an event for a task never listed gives it a row")
    func statusEventsUpdateRows() throws {
        let store = try openStore()
        try pass(store, (1...5).map { task($0, .queued) })
        try store.appendEvents([
            status("t4", .running, at: t0.addingTimeInterval(10)),
            status("new", .running, at: t0.addingTimeInterval(5)),
        ])
        let table = TaskTable.reading(store.file)
        #expect(table.rows(.init(), offset: 0, limit: 10).map(\.id) == ["t4", "new", "t1", "t2", "t3", "t5"])
        #expect(table.rows(.init(status: .running), offset: 0, limit: 10).map(\.id) == ["t4", "new"])
        #expect(table.task(id: "new")?.displayTitle == "new")
        // An older event never moves a row back in time.
        try store.appendEvents([status("t4", .completed, at: t0, event: 2)])
        #expect(table.task(id: "t4")?.status == .completed)
        #expect(table.task(id: "t4")?.updatedAt == t0.addingTimeInterval(10))
    }

    @Test("a whole pass deletes what its scope no longer holds; a cut pass and a limited list delete nothing")
    func completePassDeletesVanishedTasks() throws {
        let store = try openStore()
        try pass(store, (1...6).map { task($0, $0 % 2 == 0 ? .running : .completed) })
        let table = TaskTable.reading(store.file)
        try pass(store, (1...4).map { task($0, $0 % 2 == 0 ? .running : .completed) }, whole: false)
        #expect(table.count(.init()) == 6)
        try pass(store, [task(1)], .init(limit: 1))
        #expect(table.count(.init()) == 6)
        // The running list lost t6: it changed status rather than went, so it stays in the
        // other lists with its status unknown until a list holding it says; it is no longer
        // counted as running.
        try pass(store, [task(2, .running), task(4, .running)], .init(status: .running))
        #expect(table.rows(.init(), offset: 0, limit: 10).map(\.id) == ["t1", "t2", "t3", "t4", "t5", "t6"])
        #expect(table.task(id: "t6")?.status == .unknown)
        #expect(table.count(.init(status: .running)) == 2)
        // The whole list that no longer has it: it goes.
        try pass(store, (1...5).map { task($0, $0 % 2 == 0 ? .running : .completed) })
        #expect(table.rows(.init(), offset: 0, limit: 10).map(\.id) == ["t1", "t2", "t3", "t4", "t5"])
        // A task that starts while the running list is being fetched is not taken for gone.
        var running = try store.beginTaskPass(.init(status: .running), key: "tasks?status=running")
        try store.writeTaskPage([task(2, .running)], into: &running)
        try store.appendEvents([status("t5", .running, at: t0)])
        try store.finishTaskPass(running, fetchedAt: t0, whole: true)
        #expect(table.rows(.init(status: .running), offset: 0, limit: 10).map(\.id) == ["t5", "t2"])
        try pass(store, [task(2), task(5)])
        #expect(table.rows(.init(), offset: 0, limit: 10).map(\.id) == ["t2", "t5"])
        // The whole list's pass begins when its fetch does: a contract's list saved before it
        // ends holds a newer task, which stays.
        var all = try store.beginTaskPass(.init(), key: "tasks")
        try store.saveTaskList(
            [task(9, contract: "c9")], filter: .init(contractID: "c9"), key: "c9", fetchedAt: t0, whole: true)
        try store.writeTaskPage([task(2), task(5)], into: &all)
        try store.finishTaskPass(all, fetchedAt: t0, whole: true)
        #expect(table.rows(.init(), offset: 0, limit: 10).map(\.id) == ["t2", "t5", "t9"])
    }

    @Test("/ finds titles by a case-folded piece, wildcards as text, in the list's order, bounded")
    func filterSearch() throws {
        let store = try openStore()
        var tasks = (0..<20).map { task($0) }
        tasks.append(MeshTask(id: "w", title: "50% Of_It done", status: .running, updatedAt: t0))
        tasks.append(MeshTask(id: "x", title: "500 of it", status: .running, updatedAt: t0))
        try pass(store, tasks, page: 100)
        let table = TaskTable.reading(store.file)
        #expect(
            table.search("TASK 1", in: .init()).ids == [
                "t1", "t10", "t11", "t12", "t13", "t14", "t15", "t16", "t17", "t18", "t19",
            ])
        #expect(table.search("監査", in: .init()).ids.count == 20)
        #expect(table.search("% of_", in: .init()).ids == ["w"])
        #expect(table.search("0% of_it", in: .init(status: .running)).ids == ["w"])
        #expect(table.search("task", in: .init(limit: 3)).ids == ["t0"])  // the newest three: t0, w, x
        #expect(table.search("nothing like it", in: .init()).ids.isEmpty)
        #expect(!table.search("task", in: .init()).capped)
    }

    @Test("a 100,000-row table: windows anywhere, positions, counts and a bounded / by the index")
    func hundredThousandRows() throws {
        let store = try CacheStore.open(
            file: dir.databaseFile,
            retention: CacheRetention(eventsPerTask: 10, finishedTaskAge: 86_400, maxBytes: 256 << 20)
        ).store
        let statuses: [TaskStatus] = [.completed, .running, .failed, .queued]
        let tasks = (0..<100_000).map { n in
            MeshTask(
                id: String(format: "t%06d", n), contractID: "c\(n % 50)",
                title: n == 77_777 ? "the one needle" : "batch \(n % 1000) work", status: statuses[n % 4],
                updatedAt: t0.addingTimeInterval(-Double(n / 2)))
        }
        var p = try store.beginTaskPass(.init(), key: "tasks")
        try store.writeTaskPage(tasks, into: &p)  // one transaction
        try store.finishTaskPass(p, fetchedAt: t0, whole: true)
        let table = TaskTable.reading(store.file)
        #expect(table.count(.init()) == 100_000)
        #expect(table.count(.init(status: .running)) == 25_000)
        #expect(table.count(.init(contractID: "c7")) == 2_000)
        #expect(table.rows(.init(), offset: 50_000, limit: 3).map(\.id) == ["t050000", "t050001", "t050002"])
        #expect(table.rows(.init(status: .running), offset: 10_000, limit: 1).map(\.id) == ["t040001"])
        #expect(table.position(of: "t099999", in: .init()) == 99_999)
        #expect(table.position(of: "t040001", in: .init(status: .running)) == 10_000)
        #expect(table.search("ONE NEEDLE", in: .init()).ids == ["t077777"])
        let common = table.search("batch 1", in: .init())
        #expect(common.ids.count == TaskRows.maxMatches && common.capped)
        #expect(common.ids.first == "t000001")
    }

    @Test("the store shows a status at once, counts it, and takes the table's order once the writer commits")
    func overlayUntilTheCommit() throws {
        let store = try openStore()
        try pass(store, [task(1, .running), task(2, .queued), task(3, .queued)])
        let hub = StoreHub()
        hub.tasks.useTable(TaskTable.reading(store.file))
        #expect(MeshSummary(hub).runningTasks == 1)
        let event = status("t3", .running, at: t0.addingTimeInterval(60))
        hub.apply(.events([event]))
        // Before the commit: the row's status and the count follow, the order waits.
        #expect(hub.tasks.task(id: "t3")?.status == .running)
        #expect(hub.tasks.rows(.init()).map(\.id) == ["t1", "t2", "t3"])
        #expect(hub.tasks.rows(.init()).last?.status == .running)
        #expect(MeshSummary(hub).runningTasks == 2)
        try store.appendEvents([event])
        hub.apply(.taskRowsChanged)
        #expect(hub.tasks.rows(.init()).map(\.id) == ["t3", "t1", "t2"])
        #expect(MeshSummary(hub).runningTasks == 2)
        #expect(hub.tasks.rows(.init(status: .running)).map(\.id) == ["t3", "t1"])
    }

    @Test("a server switch reads no task of the server left behind")
    func forgettingTheServerForgetsItsRows() throws {
        let store = try openStore()
        try pass(store, [task(1, .running)])
        let hub = StoreHub()
        hub.tasks.useTable(TaskTable.reading(store.file))
        #expect(hub.tasks.runningCount == 1)
        hub.forgetServer()
        #expect(hub.tasks.runningCount == 0 && hub.tasks.rows(.init()).isEmpty && hub.tasks.recent(5).isEmpty)
    }

    @Test("a version-4 cache gets the task table; its task snapshots are dropped so the next fetch fills the table")
    func migrationFromVersion4() throws {
        try FileManager.default.createDirectory(
            at: dir.databaseFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let raw = try SQLiteDatabase(path: dir.databaseFile.path)
        for step in CacheSchema.migrations.prefix(4) { try raw.exec(step) }
        try raw.exec("PRAGMA user_version = 4")
        try raw.exec("INSERT INTO tasks (collection, position, id, json) VALUES ('tasks', 0, 't1', '{}')")
        try raw.exec("INSERT INTO collections (key, fetched_at) VALUES ('tasks', 1), ('daemons', 2)")
        raw.close()
        let opened = try CacheStore.open(file: dir.databaseFile)
        #expect(opened.notice == nil)
        #expect(try opened.store.collectionFetchTimes().keys.sorted() == ["daemons"])
        try pass(opened.store, [task(1)])
        #expect(TaskTable.reading(opened.store.file).count(.init()) == 1)
    }
}
