/// The cache's tables, versioned with `PRAGMA user_version`.
///
/// To change the schema: append a migration to `migrations` (it takes the database from version
/// `index` to `index + 1`) and bump nothing else. A database from a newer build (a higher
/// version than this one knows) is treated like a damaged one: moved aside and replaced, since
/// everything in it can be fetched again.
enum CacheSchema {
    static let migrations: [String] = [
        // 0 -> 1
        """
        CREATE TABLE collections (
            key TEXT PRIMARY KEY NOT NULL,
            fetched_at REAL NOT NULL
        );
        CREATE TABLE daemons (collection TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL,
            PRIMARY KEY (collection, position));
        CREATE TABLE contracts (collection TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL,
            PRIMARY KEY (collection, position));
        CREATE TABLE tasks (collection TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL,
            PRIMARY KEY (collection, position));
        CREATE TABLE directives (collection TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL,
            PRIMARY KEY (collection, position));
        CREATE TABLE listen_sessions (collection TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL,
            PRIMARY KEY (collection, position));
        CREATE INDEX tasks_by_id ON tasks (id);
        CREATE TABLE listen_transcripts (
            session_id TEXT PRIMARY KEY NOT NULL,
            fetched_at REAL NOT NULL,
            json TEXT NOT NULL
        );
        CREATE TABLE task_events (
            task_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            event_id INTEGER NOT NULL,
            type TEXT NOT NULL,
            json TEXT NOT NULL,
            PRIMARY KEY (task_id, seq)
        ) WITHOUT ROWID;
        """,
        // 1 -> 2: when each task last had events, and whether its last status was final, for
        // pruning by age and by total size (see CacheRetention).
        """
        CREATE TABLE task_activity (
            task_id TEXT PRIMARY KEY NOT NULL,
            last_at REAL NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        """,
        // 2 -> 3: listen sessions fetched one by one were never read back from the cache.
        "DROP TABLE IF EXISTS listen_transcripts;",
        // 3 -> 4: the per-minute activity counts. (The full-text index of the output, made
        // here once, is made at opening when missing: `OutputSearchIndex.prepare`.)
        """
        CREATE TABLE activity_minutes (
            minute INTEGER PRIMARY KEY NOT NULL,
            output INTEGER NOT NULL DEFAULT 0,
            completed INTEGER NOT NULL DEFAULT 0,
            failed INTEGER NOT NULL DEFAULT 0,
            daemons_online INTEGER
        );
        """,
        // 4 -> 5: one snapshot table for every kind of list but tasks (ListKind), its rows
        // saying their kind; the four tables of one kind each are moved into it.
        """
        CREATE TABLE list_items (
            collection TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL,
            kind TEXT NOT NULL,
            PRIMARY KEY (collection, position)
        );
        INSERT INTO list_items SELECT collection, position, id, json, 'daemons' FROM daemons;
        INSERT INTO list_items SELECT collection, position, id, json, 'contracts' FROM contracts;
        INSERT INTO list_items SELECT collection, position, id, json, 'directives' FROM directives;
        INSERT INTO list_items SELECT collection, position, id, json, 'listen_sessions' FROM listen_sessions;
        DROP TABLE daemons;
        DROP TABLE contracts;
        DROP TABLE directives;
        DROP TABLE listen_sessions;
        """,
        // 5 -> 6: the task table (one row per task, every task list a query over it; see
        // `TaskRows`). The per-list task snapshots it replaces are dropped with their fetch
        // times, so the next fetch fills it.
        TaskRows.createSQL
            + """
            DELETE FROM tasks;
            DELETE FROM collections WHERE key = 'tasks' OR key LIKE 'tasks?%';
            """,
        // 6 -> 7: task output kept as lines (`TaskLines`), the search index over them instead
        // of over events. The index made for events is dropped: it is made again at opening
        // and filled, with the lines of every cached task, off the UI thread
        // (`OutputSearchIndex.ensure`).
        TaskLines.tableSQL(named: "task_lines", key: ("task_id", "TEXT"))
            + """
            DROP TRIGGER IF EXISTS output_search_prune;
            DROP TABLE IF EXISTS output_search;
            DROP TABLE IF EXISTS search_tasks;
            DROP TABLE IF EXISTS search_state;
            """,
        // 7 -> 8: the per-list task snapshots, emptied at 5 -> 6 and read since by nothing
        // but the search index's rebuild (which reads the task table, `task_rows`).
        """
        DROP INDEX IF EXISTS tasks_by_id;
        DROP TABLE IF EXISTS tasks;
        """,
        // 8 -> 9: what needs the operator and was acknowledged (`x`), kept across restarts
        // (`NeedsYouItem.id`, when; see CacheStore+Acknowledged).
        """
        CREATE TABLE acknowledged (item TEXT PRIMARY KEY NOT NULL, at REAL NOT NULL) WITHOUT ROWID;
        """,
        // 9 -> 10: events in chunks (`EventChunk`: a gapless run of one task's events a row,
        // keyed by the task's number), the number given by task_activity (which every task
        // with events has; never reused, so a chunk left behind is no other task's), and
        // whose lines wait for the catch-up (`lines_due`, `TaskLines.catchUpDue`). Each
        // cached event becomes a chunk of one, its wire JSON as it was (read as before). The
        // search index is dropped, to be made again without its token counts (`columnsize =
        // 0`): at opening, and filled off the UI thread (`OutputSearchIndex.ensure`).
        """
        DROP TRIGGER IF EXISTS output_search_prune;
        DROP TABLE IF EXISTS output_search;
        DROP TABLE IF EXISTS search_tasks;
        DROP TABLE IF EXISTS search_state;
        CREATE TABLE task_activity_v10 (
            num INTEGER PRIMARY KEY AUTOINCREMENT,
            task_id TEXT NOT NULL UNIQUE,
            last_at REAL NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            lines_due INTEGER
        );
        INSERT INTO task_activity_v10 (task_id, last_at, finished) SELECT task_id, last_at, finished FROM task_activity;
        INSERT OR IGNORE INTO task_activity_v10 (task_id, last_at, finished)
            SELECT DISTINCT task_id, 0, 0 FROM task_events;
        DROP TABLE task_activity;
        ALTER TABLE task_activity_v10 RENAME TO task_activity;
        CREATE INDEX task_activity_lines_due ON task_activity (lines_due) WHERE lines_due IS NOT NULL;
        CREATE TABLE task_chunks (
            id INTEGER PRIMARY KEY,
            num INTEGER NOT NULL,
            first_seq INTEGER NOT NULL,
            last_seq INTEGER NOT NULL,
            text TEXT NOT NULL,
            pieces BLOB NOT NULL
        );
        CREATE INDEX task_chunks_by_task ON task_chunks (num, last_seq);
        INSERT INTO task_chunks (num, first_seq, last_seq, text, pieces)
            SELECT a.num, e.seq, e.seq, '', CAST(e.json AS BLOB) FROM task_events e
            JOIN task_activity a ON a.task_id = e.task_id ORDER BY e.task_id, e.seq;
        DROP TABLE task_events;
        CREATE TRIGGER task_chunks_leave AFTER DELETE ON task_activity
        BEGIN
            DELETE FROM task_chunks WHERE num = old.num;
        END;
        """,
        // 10 -> 11: lines keyed by the task's number (task_activity's, as chunks are), not its
        // id: the id was a third of each line's row, written again at every catch-up. Lines of
        // no task with events go (nothing reads them). The index's trigger is dropped with the
        // old table; opening makes it again and refills the index off the UI thread
        // (`OutputSearchIndex.prepare`, `ensure`).
        TaskLines.tableSQL(named: "task_lines_v11", key: ("num", "INTEGER"))
            + """
            DROP TRIGGER IF EXISTS output_search_prune;
            INSERT INTO task_lines_v11 SELECT a.num, l.line_no, l.first_seq, l.last_seq, l.stream, l.open, l.text
                FROM task_lines l JOIN task_activity a ON a.task_id = l.task_id;
            DROP TABLE task_lines;
            ALTER TABLE task_lines_v11 RENAME TO task_lines;
            """,
    ]

    static var version: Int { migrations.count }

    /// Every table the current version must have; a database missing one is not ours.
    static let tables = [
        "collections", "list_items", "task_chunks", "task_lines", "task_activity", "activity_minutes",
        "task_rows", "acknowledged",
    ]

    enum Problem: Error {
        case newerVersion(Int)
        /// A version no build ever wrote (below zero: a damaged header, or a foreign file).
        case impossibleVersion(Int)
        /// A step failed on what its version says it should find (its tables already there,
        /// say, after the version was lost): the file is not what its version claims.
        case migrationFailed(from: Int, String)
        case missingTables([String])
    }

    /// Brings the database to `version`, each step in its own write transaction. The version
    /// is read inside that transaction: two instances opening a new cache together would
    /// otherwise both read 0 and the second would fail creating tables the first just made.
    /// A cache already at `version` (the usual start) takes no write lock at all.
    static func migrate(_ db: SQLiteDatabase) throws {
        let seen = try checkedVersion(db)
        while seen != version,
            try db.transaction({ () throws -> Bool in
                let current = try checkedVersion(db)
                guard current < version else { return false }
                try step(db, from: current)
                return true
            })
        {}
        let present = try tableNames(db)
        let missing = tables.filter { !present.contains($0) }
        if !missing.isEmpty { throw Problem.missingTables(missing) }
    }

    /// `user_version`, which is a signed 32-bit number in the file's header: anything outside
    /// 0...version is not a cache this build can read (and must never index `migrations`).
    private static func checkedVersion(_ db: SQLiteDatabase) throws -> Int {
        let v = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
        if v > version { throw Problem.newerVersion(v) }
        if v < 0 { throw Problem.impossibleVersion(v) }
        return v
    }

    /// Runs the migration from `current`. A failure that is the file's content (not a lock or
    /// a full disk, which pass through untouched) says the file is not the version it claims.
    private static func step(_ db: SQLiteDatabase, from current: Int) throws {
        do {
            try db.exec(migrations[current])
            try db.exec("PRAGMA user_version = \(current + 1)")
        } catch {
            guard error.kind == .other || error.kind == .corrupt else { throw error }
            throw Problem.migrationFailed(from: current, error.message)
        }
    }

    private static func tableNames(_ db: SQLiteDatabase) throws -> Set<String> {
        let statement = try db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
        var names: Set<String> = []
        while try statement.step() { if let name = statement.text(0) { names.insert(name) } }
        return names
    }
}
