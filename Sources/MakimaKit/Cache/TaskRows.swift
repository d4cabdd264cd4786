import Foundation

/// The task table: one row per task id, whatever lists it was seen in, with the columns a row
/// of the Tasks pane and its filters need. A task list (`TasksStore.Filter`) is a query over
/// it: a count, and the rows in `[offset, offset + n)` in the pane's order (newest activity
/// first, ties by id), each filter served by an index.
///
/// Writes come in passes: a list fetched page by page writes each page (`upsert`), stamping
/// its rows with a number newer than the pass's start; when the list is complete, the rows of
/// the list's scope not stamped since the pass began are gone from the server (`finishPass`).
/// A status event updates its task's row and stamps it too, so a task that started while a
/// list was being fetched is not taken for gone by that list.
///
/// The `/` filter asks the trigram index over the case-folded titles (`task_rows_fts`, kept
/// by triggers) for candidates and checks each with `instr`: user text is never FTS syntax.
enum TaskRows {
    static let createSQL = """
        CREATE TABLE task_rows (
            id TEXT PRIMARY KEY NOT NULL,
            status TEXT NOT NULL,
            contract_id TEXT,
            daemon_id TEXT,
            parent_id TEXT,
            title TEXT NOT NULL,
            folded TEXT NOT NULL,
            created_at REAL,
            updated_at REAL,
            completed_at REAL,
            seen INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX task_rows_order ON task_rows (updated_at DESC, id);
        CREATE INDEX task_rows_by_status ON task_rows (status, updated_at DESC, id);
        CREATE INDEX task_rows_by_contract ON task_rows (contract_id, updated_at DESC, id);
        CREATE VIRTUAL TABLE task_rows_fts USING fts5(
            folded, content = 'task_rows', content_rowid = 'rowid', tokenize = 'trigram', detail = 'none');
        CREATE TRIGGER task_rows_ai AFTER INSERT ON task_rows BEGIN
            INSERT INTO task_rows_fts (rowid, folded) VALUES (new.rowid, new.folded);
        END;
        CREATE TRIGGER task_rows_ad AFTER DELETE ON task_rows BEGIN
            INSERT INTO task_rows_fts (task_rows_fts, rowid, folded) VALUES ('delete', old.rowid, old.folded);
        END;
        CREATE TRIGGER task_rows_au AFTER UPDATE OF folded ON task_rows WHEN old.folded IS NOT new.folded BEGIN
            INSERT INTO task_rows_fts (task_rows_fts, rowid, folded) VALUES ('delete', old.rowid, old.folded);
            INSERT INTO task_rows_fts (rowid, folded) VALUES (new.rowid, new.folded);
        END;
        """

    /// The columns a row is read with, in `task(from:)`'s order.
    static let columns = "id, status, contract_id, daemon_id, parent_id, title, created_at, updated_at, completed_at"
    /// The pane's order; every filter's index ends with these two columns.
    static let order = "ORDER BY updated_at DESC, id"
    /// The most rows one `/` filter shows (the count then reads "200+": typing more narrows it).
    static let maxMatches = 200
    /// A piece too short for the trigram index is looked for among this many newest rows.
    static let shortScanRows = 10_000

    /// The WHERE clause of a filter's scope, its parameters bound from `?1` on.
    static func scope(_ filter: TasksStore.Filter) -> (sql: String, values: [String]) {
        var terms: [String] = []
        var values: [String] = []
        if let s = filter.status {
            values.append(s.rawValue)
            terms.append("status = ?\(values.count)")
        }
        if let c = filter.contractID {
            values.append(c)
            terms.append("contract_id = ?\(values.count)")
        }
        return (terms.isEmpty ? "1" : terms.joined(separator: " AND "), values)
    }

    static func bind(_ values: [String], to statement: SQLiteStatement) throws {
        for (i, v) in values.enumerated() { try statement.bind(v, at: Int32(i + 1)) }
    }

    // MARK: Writes

    /// Inserts or updates `tasks`, stamping each with `stamp`. A row stamped at or after
    /// `olderThan` (a status event committed while the list was read) is newer than the list
    /// and keeps what it says.
    static func upsert(
        _ tasks: some Sequence<MeshTask>, stamp: Int64, olderThan: Int64 = .max, in db: SQLiteDatabase
    ) throws {
        let insert = try db.prepare(
            """
            INSERT INTO task_rows (id, status, contract_id, daemon_id, parent_id, title, folded, created_at,
                updated_at, completed_at, seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            ON CONFLICT (id) DO UPDATE SET status = excluded.status, contract_id = excluded.contract_id,
                daemon_id = excluded.daemon_id, parent_id = excluded.parent_id, title = excluded.title,
                folded = excluded.folded, created_at = excluded.created_at, updated_at = excluded.updated_at,
                completed_at = excluded.completed_at, seen = excluded.seen
            WHERE task_rows.seen < ?12
            """)
        for t in tasks {
            try bindRow(t, stamp: stamp, to: insert)
            try insert.bind(olderThan, at: 12)
            _ = try insert.step()
            insert.reset()
        }
    }

    /// A task's columns bound as `?1`…`?11`, in the table's column order, the stamp last.
    private static func bindRow(_ t: MeshTask, stamp: Int64, to statement: SQLiteStatement) throws {
        let title = t.displayTitle
        try statement.bind(t.id, at: 1)
        try statement.bind(t.status.rawValue, at: 2)
        try statement.bind(t.contractID, at: 3)
        try statement.bind(t.daemonID, at: 4)
        try statement.bind(t.parentID, at: 5)
        try statement.bind(title, at: 6)
        try statement.bind(title.lowercased(), at: 7)
        try statement.bind(t.createdAt?.timeIntervalSince1970, at: 8)
        try statement.bind(t.updatedAt?.timeIntervalSince1970, at: 9)
        try statement.bind(t.completedAt?.timeIntervalSince1970, at: 10)
        try statement.bind(stamp, at: 11)
    }

    /// The rows of `filter`'s scope not stamped since `since` (the list no longer has them):
    /// deleted, except from a list filtered by status, whose missing tasks changed status
    /// rather than went (a task that finished while the dashboard was offline leaves the
    /// running list, not the mesh): they keep their row with the status `unknown` until a
    /// list that holds them says what it is. A list with a limit (the newest few) says nothing
    /// of the others: nothing changes.
    static func finishPass(_ filter: TasksStore.Filter, since: Int64, in db: SQLiteDatabase) throws {
        guard filter.limit == nil else { return }
        let (sql, values) = scope(filter)
        let change =
            filter.status == nil
            ? "DELETE FROM task_rows" : "UPDATE task_rows SET status = '\(TaskStatus.unknown.rawValue)'"
        let delete = try db.prepare("\(change) WHERE \(sql) AND seen < ?\(values.count + 1)")
        try bind(values, to: delete)
        try delete.bind(since, at: Int32(values.count + 1))
        _ = try delete.step()
    }

    /// A status event: the task's row takes the status and the time, and is stamped. A task
    /// never listed gets a row of its own with no title (shown by its id) while the table has
    /// `room`: events for unknown ids, however many, never grow it past its share. Returns the
    /// rows it added.
    @discardableResult
    static func setStatus(
        _ changes: some Sequence<(id: String, status: TaskStatus, at: Date)>, stamp: Int64, room: Int = .max,
        in db: SQLiteDatabase
    ) throws -> Int {
        let update = try db.prepare(
            """
            UPDATE task_rows SET status = ?2, updated_at = max(coalesce(updated_at, ?3), ?3), seen = ?4 WHERE id = ?1
            """)
        let insert = try db.prepare(
            """
            INSERT OR IGNORE INTO task_rows (id, status, title, folded, updated_at, seen)
            VALUES (?1, ?2, '', lower(?1), ?3, ?4)
            """)
        return try updateOrInsert(changes, update: update, insert: insert, room: room, in: db) { c, statement in
            try statement.bind(c.id, at: 1)
            try statement.bind(c.status.rawValue, at: 2)
            try statement.bind(c.at.timeIntervalSince1970, at: 3)
            try statement.bind(stamp, at: 4)
        }
    }

    /// Each item updates its row, or (when no row changed and the table has `room` left) is
    /// inserted; `bind` binds an item to either statement. Returns the rows inserted.
    private static func updateOrInsert<Item>(
        _ items: some Sequence<Item>, update: SQLiteStatement, insert: SQLiteStatement, room: Int,
        in db: SQLiteDatabase, bind: (Item, SQLiteStatement) throws -> Void
    ) throws -> Int {
        var added = 0
        for item in items {
            for statement in [update, insert] {
                if statement === insert && added >= room { break }
                try bind(item, statement)
                _ = try statement.step()
                statement.reset()
                if db.changes > 0 {
                    if statement === insert { added += 1 }
                    break
                }
            }
        }
        return added
    }

    /// Tasks fetched one by one because an event named them before any list held them: each
    /// row takes the task's title, daemon, contract and times, and is stamped. Its status stays
    /// the row's when an event stamped it at or after `olderThan` (the fetch's start: the event
    /// is newer than the answer). A task without a row gets one while the table has `room`.
    /// Returns the rows it added.
    @discardableResult
    static func name(
        _ tasks: some Sequence<MeshTask>, stamp: Int64, olderThan: Int64, room: Int, in db: SQLiteDatabase
    ) throws -> Int {
        let update = try db.prepare(
            """
            UPDATE task_rows SET contract_id = ?3, daemon_id = ?4, parent_id = ?5, title = ?6, folded = ?7,
                created_at = ?8, updated_at = max(coalesce(updated_at, ?9), coalesce(?9, updated_at)),
                status = CASE WHEN seen < ?12 THEN ?2 ELSE status END,
                completed_at = CASE WHEN seen < ?12 THEN ?10 ELSE completed_at END, seen = max(seen, ?11)
            WHERE id = ?1
            """)
        let insert = try db.prepare(
            """
            INSERT OR IGNORE INTO task_rows (id, status, contract_id, daemon_id, parent_id, title, folded, created_at,
                updated_at, completed_at, seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """)
        return try updateOrInsert(tasks, update: update, insert: insert, room: room, in: db) { t, statement in
            try bindRow(t, stamp: stamp, to: statement)
            if statement === update { try statement.bind(olderThan, at: 12) }
        }
    }

    /// The newest stamp written (passes start past it).
    /// A damaged stamp (not a number, negative, or too near the top for the next one to be
    /// counted up from) is taken as 0: the next pass's rows are still newer than its own start.
    static func newestStamp(in db: SQLiteDatabase) throws -> Int64 {
        let select = try db.prepare("SELECT max(seen) FROM task_rows")
        return try select.step() ? select.integer(0, in: 0...maxStamp) ?? 0 : 0
    }

    /// The highest stamp read back from the file: billions of passes from the top.
    static let maxStamp = Int64.max >> 1

    /// Every row (a server switch, or a test's fresh table).
    static func deleteAll(in db: SQLiteDatabase) throws { try db.exec("DELETE FROM task_rows") }
}
