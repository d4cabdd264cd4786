import Foundation

/// Every table the cache writes, each with the rule that holds it. The cap on the file's bytes
/// (`CacheRetention.maxBytes` plus the task table's share) is held by `CacheStore.prune`,
/// which takes task output away; the rules here hold each table's rows, so no table grows
/// for ever in the room the others leave (a stream of events for ids no list named once kept
/// 300,000 rows of events and activity while the task table stopped at its share). Every
/// full prune applies them all, in one transaction. A new table is one more entry here.
struct BoundedTable: Sendable {
    let table: String
    /// What holds it, in words (docs/architecture.md lists the same).
    let bound: String
    /// Removes what is past the bound; returns the rows it removed.
    let prune: @Sendable (SQLiteDatabase, CacheBounds.Limits) throws -> Int
}

enum CacheBounds {
    /// What the rules are measured against.
    struct Limits: Sendable {
        /// The task table's share in rows (`CacheStore.maxTaskRows`): also the most tasks that
        /// keep events.
        var tasks: Int
        var now: Date
    }

    /// The most list snapshots (collection keys) kept: a key per list and filter read.
    static let maxCollections = 256

    static let tables: [BoundedTable] = [
        BoundedTable(
            table: "task_chunks",
            bound: "the newest events_per_task a task (on every insert), finished tasks past their age, the cap "
                + "(CacheStore.prune), and the tasks task_activity keeps (a trigger takes a task's chunks with "
                + "its row); a chunk of no task goes",
            prune: { db, _ in
                try db.exec("DELETE FROM task_chunks WHERE num NOT IN (SELECT num FROM task_activity)")
                return db.changes
            }),
        BoundedTable(
            table: "task_lines",
            bound: "a task's newest events_per_task lines (as they are written), each cut at its most bytes, and "
                + "the tasks task_activity keeps (a task's lines go with it)",
            prune: { _, _ in 0 }),
        BoundedTable(
            table: "task_activity",
            bound: "one row a task with events, at most the task table's share of tasks: past it the least "
                + "recently active (finished first) go with their events, down to seven eighths of it",
            prune: { db, limits in try pruneActivity(db, keep: limits.tasks) }),
        BoundedTable(
            table: "task_rows",
            bound: "its share (tasks_max_mb at 1 KiB a task), held as lists and statuses are written; a table "
                + "over it (a smaller share set since) loses its least recently updated rows",
            prune: { db, limits in
                try deleteBeyond(
                    limits.tasks, from: "task_rows", order: "updated_at DESC, id", key: "rowid", in: db)
            }),
        BoundedTable(
            table: "task_rows_fts", bound: "a row a task row (kept by triggers)", prune: { _, _ in 0 }),
        BoundedTable(
            table: "search_tasks",
            bound: "the tasks the cache holds (with events, a task row or a snapshot row), at most twice the "
                + "task table's share; past it the others go with their rows in output_search",
            prune: { db, limits in try pruneSearchTasks(db, keep: 2 * limits.tasks) }),
        BoundedTable(
            table: "output_search",
            bound: "a row a cached output event or line (removed with it by a trigger) and one a task of "
                + "search_tasks",
            prune: { _, _ in 0 }),
        BoundedTable(table: "search_state", bound: "one row a key of the index's state", prune: { _, _ in 0 }),
        BoundedTable(
            table: "activity_minutes",
            bound: "a row a whole minute of the last 7 days (rows from any other time, or not a whole minute, go)",
            prune: { db, limits in
                let now = ActivityMinute.minute(of: limits.now)
                let stale = try db.prepare(
                    "DELETE FROM activity_minutes WHERE typeof(minute) != 'integer' OR minute <= ?1 OR minute > ?2")
                try stale.bind(now - CacheStore.activityKeptMinutes, at: 1)
                try stale.bind(now + 1, at: 2)
                try stale.step()
                return db.changes
            }),
        BoundedTable(
            table: "collections",
            bound: "\(maxCollections) list snapshots, each a quarter of the cap; past that the least recently "
                + "fetched go with their rows in list_items",
            prune: { db, _ in try pruneCollections(db) }),
        BoundedTable(table: "list_items", bound: "the rows of the collections kept", prune: { _, _ in 0 }),
        BoundedTable(
            table: "acknowledged",
            bound: "the newest \(CacheStore.acknowledgedKept) acknowledged needs-you items",
            prune: { db, _ in
                try deleteBeyond(
                    CacheStore.acknowledgedKept, from: "acknowledged", order: "at DESC", key: "item", in: db)
            }),
    ]

    /// Applies every table's rule; returns the rows removed.
    static func apply(_ db: SQLiteDatabase, _ limits: Limits) throws -> Int {
        try tables.reduce(0) { $0 + (try $1.prune(db, limits)) }
    }

    /// The rows of `table` past the first `keep` in `order`, deleted by `key`.
    private static func deleteBeyond(_ keep: Int, from table: String, order: String, key: String, in db: SQLiteDatabase)
        throws -> Int
    {
        let count = Int(try db.scalarInt("SELECT count(*) FROM \(table)") ?? 0)
        guard count > keep else { return 0 }
        let delete = try db.prepare(
            "DELETE FROM \(table) WHERE \(key) IN (SELECT \(key) FROM \(table) ORDER BY \(order) LIMIT -1 OFFSET ?1)")
        try delete.bind(keep, at: 1)
        try delete.step()
        return db.changes
    }

    /// Past `bound` tasks, the least recently active (finished before running) lose their
    /// events and their activity row, down to seven eighths of it (so a table at its bound is
    /// not pruned again at every batch).
    private static func pruneActivity(_ db: SQLiteDatabase, keep bound: Int) throws -> Int {
        let count = Int(try db.scalarInt("SELECT count(*) FROM task_activity") ?? 0)
        guard count > bound else { return 0 }
        let oldest = try db.prepare(
            "SELECT task_id FROM task_activity ORDER BY finished DESC, last_at ASC LIMIT ?1")
        try oldest.bind(count - (bound - bound / 8), at: 1)
        var tasks: [String] = []
        while try oldest.step() { if let t = oldest.text(0) { tasks.append(t) } }
        let removal = try TaskRemoval(db)
        var removed = 0
        for task in tasks { removed += try removal.remove(task) + 1 }
        return removed
    }

    /// Past `keep` rows, the tasks the cache no longer holds leave the search index: their
    /// title row first (the rows of their events went with the events).
    private static func pruneSearchTasks(_ db: SQLiteDatabase, keep: Int) throws -> Int {
        let count = Int(try db.scalarInt("SELECT count(*) FROM search_tasks") ?? 0)
        guard count > keep else { return 0 }
        let gone = try db.prepare(
            """
            SELECT num FROM search_tasks s WHERE NOT EXISTS (SELECT 1 FROM task_activity a WHERE a.task_id = s.task_id)
                AND NOT EXISTS (SELECT 1 FROM task_rows r WHERE r.id = s.task_id)
            """)
        var nums: [Int64] = []
        while try gone.step() { nums.append(gone.int64(0)) }
        let title = try db.prepare("DELETE FROM output_search WHERE rowid = ?1")
        let row = try db.prepare("DELETE FROM search_tasks WHERE num = ?1")
        for num in nums {
            if let rowid = OutputSearchIndex.rowid(num: num, line: 0) {
                try title.run(rowid)
            }
            try row.run(num)
        }
        return nums.count
    }

    /// Past `maxCollections`, the least recently fetched lists go with their rows.
    private static func pruneCollections(_ db: SQLiteDatabase) throws -> Int {
        let old = try db.prepare("SELECT key FROM collections ORDER BY fetched_at DESC LIMIT -1 OFFSET ?1")
        try old.bind(maxCollections, at: 1)
        var keys: [String] = []
        while try old.step() { if let k = old.text(0) { keys.append(k) } }
        var removed = 0
        for sql in [
            "DELETE FROM list_items WHERE collection = ?1", "DELETE FROM collections WHERE key = ?1",
        ] {
            let delete = try db.prepare(sql)
            for key in keys {
                try delete.run(key)
                removed += db.changes
            }
        }
        return removed
    }
}
