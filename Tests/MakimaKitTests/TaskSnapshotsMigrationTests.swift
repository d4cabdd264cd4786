import Foundation
import Testing

@testable import MakimaKit

/// The per-list task snapshots (`tasks`, emptied when the task table came) are dropped: a cache
/// written before keeps its task rows, its other lists and its search index, and the table is
/// gone, not required.
@Suite struct TaskSnapshotsMigrationTests {
    let dir = CacheTempDir()
    var file: URL { dir.databaseFile }

    /// A version-7 cache, as the build before wrote it: the old snapshot table still there
    /// (with a row a hand edit or a foreign program left), beside a task row and a list.
    @Test func aVersion7CacheLosesTheSnapshotTableAndKeepsEverythingElse() throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let raw = try SQLiteDatabase(path: file.path)
        for step in CacheSchema.migrations.prefix(7) { try raw.exec(step) }
        try raw.exec("PRAGMA user_version = 7")
        let json = try CacheStore.encodeJSON(CacheFixtures.tasks[0]).replacingOccurrences(of: "'", with: "''")
        try raw.exec("INSERT INTO tasks (collection, position, id, json) VALUES ('tasks', 0, 't1', '\(json)')")
        try raw.exec(
            """
            INSERT INTO task_rows (id, title, folded, status, updated_at) VALUES ('t2', 'Kept row', 'kept row', 'running', 1);
            INSERT INTO collections (key, fetched_at) VALUES ('daemons', \(CacheFixtures.t0.timeIntervalSince1970));
            """)
        for (position, daemon) in CacheFixtures.daemons.enumerated() {
            let json = try CacheStore.encodeJSON(daemon).replacingOccurrences(of: "'", with: "''")
            try raw.exec(
                """
                INSERT INTO list_items (collection, position, id, json, kind)
                VALUES ('daemons', \(position), '\(daemon.id)', '\(json)', 'daemons')
                """)
        }
        raw.close()

        let opened = try CacheStore.open(file: file)
        #expect(opened.notice == nil, "an upgrade, not a damaged cache moved aside")
        let store = opened.store
        #expect(try store.load(Daemon.self, from: .daemons, query: "")?.items == CacheFixtures.daemons)
        let table = TaskTable.reading(file)
        defer { table.close() }
        #expect(table.task(id: "t2")?.title == "Kept row")
        #expect(table.task(id: "t1") == nil, "a snapshot row is not a task row")
        // The search index, built from the task table's titles.
        #expect(try store.searchOutput("kept row").map(\.taskID) == ["t2"])
        store.close()

        let check = try SQLiteDatabase(path: file.path)
        defer { check.close() }
        #expect(try check.scalarInt("PRAGMA user_version") == Int64(CacheSchema.version))
        #expect(try check.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name IN ('tasks', 'tasks_by_id')") == 0)
    }

    @Test func aNewCacheHasNoSnapshotTableAndDoesNotRequireOne() throws {
        let store = try CacheStore.open(file: file).store
        store.close()
        let check = try SQLiteDatabase(path: file.path)
        defer { check.close() }
        #expect(try check.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'tasks'") == 0)
        #expect(!CacheSchema.tables.contains("tasks"))
    }
}
