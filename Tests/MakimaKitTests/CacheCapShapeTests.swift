import Foundation
import Testing

@testable import MakimaKit

/// The cap holds whatever the shape of the data: many tasks with one large event each used
/// to pass it (pruning keeps every task's newest event), 600 × 1 MB making an 810 MB file
/// against a 64 MB cap. Oversized events are cut with a marker; whole tasks go, oldest first.
@Suite struct CacheCapShapeTests {
    let dir = CacheTempDir()
    static let cap = 4 << 20

    static func big(_ task: String, seq: Int = 1, bytes: Int) -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: task, seq: seq, type: .output,
            payload: .output(text: String(repeating: "y", count: bytes - 1) + "\n", stream: "assistant"))
    }

    private func fileBytes(_ suffix: String = "") throws -> Int {
        let path = dir.databaseFile.path + suffix
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
        return size?.intValue ?? 0
    }

    /// The file on disk, not only its pages in use, holds the cap: pages freed by pruning go
    /// back. Run with the search index caught up at every append and with it never caught up
    /// (its catch-up is timed, once a second): the file used to pass the cap in some runs and
    /// not others, as the machine's speed moved the catch-ups.
    @Test(arguments: [0, TimeInterval.infinity])
    func manyTasksWithOneLargeEventEachStayUnderTheCap(indexEvery: TimeInterval) throws {
        let policy = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 86_400, maxBytes: Self.cap)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        store.indexInterval.withLock { $0 = indexEvery }
        for t in 0..<600 {
            try store.appendEvents([Self.big("t\(t)", bytes: 256 << 10)])
            let (used, file) = try store.withDatabase { db in
                (try CacheSpaceManager.usedBytes(db), try CacheSpaceManager.fileBytes(db))
            }
            #expect(used <= Self.cap, "after task \(t): \(used) bytes in use")
            #expect(file <= Self.cap, "after task \(t): the file is \(file) bytes")
            // The -wal is checkpointed at a sixteenth of the cap and cut back after: at most that
            // and the one transaction just written, where an event of 256 KiB is written about
            // four times (the event, its line, the index's copy and its terms). SQLite's default
            // checkpoint (1,000 pages) would let it grow to 4 MB, the whole cap again.
            let wal = try fileBytes("-wal")
            #expect(wal <= Self.cap / 16 + 4 * (256 << 10) + (64 << 10), "after task \(t): the -wal is \(wal) bytes")
            if used > Self.cap || file > Self.cap || wal > Self.cap / 2 { break }
        }
        #expect(try fileBytes() <= Self.cap + (1 << 20))
        // The newest task is there, cut to the per-event size with a marker; the oldest went.
        let newest = try store.events(taskID: "t599")
        #expect(newest.count == 1)
        guard case .output(let text, _)? = newest.first?.payload else {
            Issue.record("the newest task's event is not cached")
            return
        }
        #expect(text.utf8.count <= policy.maxEventBytes)
        #expect(text.hasPrefix("yyyy"))
        #expect(text.hasSuffix("more bytes of this event are not kept in the offline cache]\n"))
        #expect(try store.eventCount(taskID: "t0") == 0)
        #expect(store.integrityCheck())
    }

    /// The activity order the cap trims by: within one batch, the task whose last event came
    /// later is the more recently active, whatever order a dictionary would give them.
    @Test func aBatchsTasksAreActiveInTheOrderOfTheirLastEvent() throws {
        let events = ["m", "z", "a", "m", "q"].enumerated().map { Self.big($0.element, seq: $0.offset + 1, bytes: 16) }
        #expect(CacheStore.tasksByLastEvent(events) == ["z", "a", "m", "q"])
        let store = try CacheStore.open(file: dir.databaseFile).store
        try store.appendEvents(events)
        let order = try store.withDatabase { db in
            let select = try db.prepare("SELECT task_id FROM task_activity ORDER BY last_at ASC")
            var ids: [String] = []
            while try select.step() { ids.append(select.text(0) ?? "") }
            return ids
        }
        #expect(order == ["z", "a", "m", "q"])
    }

    @Test func oneBatchOfManyLargeEventsStaysUnderTheCap() throws {
        let policy = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 86_400, maxBytes: Self.cap)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        try store.appendEvents((0..<400).map { Self.big("b\($0)", bytes: 128 << 10) })
        let used = try store.withDatabase { db in try CacheSpaceManager.usedBytes(db) }
        #expect(used <= Self.cap)
        #expect(try store.eventCount(taskID: "b399") == 1)
        // Statuses and questions are cut the same way.
        let reason = String(repeating: "r", count: 1 << 20)
        try store.appendEvents([
            TaskEvent(
                eventID: 9, taskID: "s", seq: 1, type: .status,
                payload: .status(status: .failed, previous: nil, reason: reason))
        ])
        guard case .status(_, _, let kept)? = try store.events(taskID: "s").first?.payload else {
            Issue.record("status not cached")
            return
        }
        #expect((kept?.utf8.count ?? 0) <= policy.maxEventBytes)
        #expect(kept?.contains("not kept in the offline cache") == true)
    }

    /// Pruning removes events only: a list snapshot larger than the cap would hold the file
    /// over it for good, and every append would then prune every task's events away.
    @Test func aHugeListSnapshotKeepsToAQuarterOfTheCap() throws {
        let policy = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 86_400, maxBytes: Self.cap)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        let title = String(repeating: "t", count: 64 << 10)
        let tasks = (0..<200).map { MeshTask(id: "big\($0)", title: title, status: .running) }
        try store.replace(tasks, in: .taskSnapshots, query: "", fetchedAt: CacheFixtures.t0)
        let used = try store.withDatabase { db in try CacheSpaceManager.usedBytes(db) }
        #expect(used <= Self.cap / 4 + (1 << 20))
        let kept = try #require(try store.load(MeshTask.self, from: .taskSnapshots, query: ""))
        #expect(!kept.items.isEmpty && kept.items.count < 200)
        #expect(kept.items.first?.id == "big0")
        try store.appendEvents([Self.big("after", bytes: 1_000)])
        #expect(try store.eventCount(taskID: "after") == 1)
    }

    /// Status and output events for ids no list named: the task table stops at its share, and
    /// so do the tables of events and activity (they once kept a row a task, 300,000 of them),
    /// the search index's task rows, and the file.
    @Test func eventsForUnknownIdsStopAtTheTaskTablesShare() throws {
        let policy = CacheRetention(
            eventsPerTask: 2_000, finishedTaskAge: 86_400, maxBytes: 1 << 20, taskBytes: 1 << 20)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        let share = store.maxTaskRows
        for batch in 0..<10 {
            try store.appendEvents(
                (0..<2_000).map { i in
                    let n = batch * 2_000 + i
                    return n % 2 == 0
                        ? TaskEvent(
                            eventID: Int64(n), taskID: "unknown-\(n)", seq: 1, type: .status,
                            payload: .status(status: .running, previous: nil, reason: nil))
                        : TaskEvent(
                            eventID: Int64(n), taskID: "unknown-\(n)", seq: 1, type: .output,
                            payload: .output(text: "output of \(n)\n", stream: "tool"))
                })
        }
        let rows = try store.withDatabase { db in
            try ["task_rows", "task_activity", "search_tasks"].map {
                Int(try db.scalarInt("SELECT count(*) FROM \($0)") ?? 0)
            }
                + [Int(try db.scalarInt("SELECT count(DISTINCT num) FROM task_chunks") ?? 0)]
        }
        #expect(rows[0] <= share, "task_rows \(rows[0])")
        #expect(rows[1] <= share, "task_activity \(rows[1])")
        #expect(rows[2] <= 2 * share, "search_tasks \(rows[2])")
        #expect(rows[3] <= share, "tasks with events \(rows[3])")
        // The least recently active went first: what is left is of the last batch.
        let kept: [String] = try store.withDatabase { db in
            let select = try db.prepare("SELECT task_id FROM task_activity")
            var ids: [String] = []
            while try select.step() { ids.append(select.text(0) ?? "") }
            return ids
        }
        #expect(!kept.isEmpty && kept.allSatisfy { (Int($0.dropFirst("unknown-".count)) ?? 0) >= 18_000 })
        store.close()
        #expect(try fileBytes() <= policy.maxBytes + policy.taskBytes)
    }

    /// A file made before pages were given back switches once, at the writer's first prune;
    /// from then on what pruning frees leaves the file.
    @Test func aFileFromBeforeSwitchesToGivingPagesBack() throws {
        let legacy = try CacheStore.open(file: dir.databaseFile).store
        try legacy.withDatabase { db in
            try db.exec("PRAGMA auto_vacuum = NONE")
            try db.exec("VACUUM")
        }
        #expect(try legacy.withDatabase { db in try db.scalarInt("PRAGMA auto_vacuum") } == 0)
        legacy.close()
        let store = try CacheStore.open(file: dir.databaseFile).store
        #expect(try store.withDatabase { db in try db.scalarInt("PRAGMA auto_vacuum") } == 0, "not on opening")
        try store.appendEvents([Self.big("a", bytes: 1_000)])
        #expect(try store.withDatabase { db in try db.scalarInt("PRAGMA auto_vacuum") } == 2)
        try store.appendEvents((2...3_000).map { Self.big("a", seq: $0, bytes: 1_000) })
        let before = try store.pageCount()
        try store.appendEvents([
            TaskEvent(
                eventID: 9, taskID: "a", seq: 3_001, type: .status,
                payload: .status(status: .completed, previous: nil, reason: nil))
        ])
        let pruned = try store.prune(now: Date().addingTimeInterval(30 * 86_400))
        #expect(pruned.finishedTasksRemoved == 1 && pruned.pagesGivenBack > 0)
        #expect(try store.pageCount() * 4 < before)
        #expect(try store.withDatabase { db in try db.scalarInt("PRAGMA freelist_count") } == 0)
    }

    /// Every table the cache makes has its bound written down (`CacheBounds`): a new table
    /// without one fails here.
    @Test func everyTableHasABound() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        let tables: [String] = try store.withDatabase { db in
            let select = try db.prepare(
                """
                SELECT name FROM sqlite_schema s WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                AND NOT EXISTS (SELECT 1 FROM sqlite_schema v WHERE v.sql LIKE 'CREATE VIRTUAL TABLE%'
                    AND s.name LIKE v.name || '\\_%' ESCAPE '\\')
                """)
            var names: [String] = []
            while try select.step() { names.append(select.text(0) ?? "") }
            return names
        }
        let bounded = Set(CacheBounds.tables.map(\.table))
        #expect(tables.count >= 9)
        for table in tables { #expect(bounded.contains(table), "\(table) has no bound") }
    }
}
