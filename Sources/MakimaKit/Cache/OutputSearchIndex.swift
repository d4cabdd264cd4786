import Foundation

/// The full-text index over the cached task output lines, titles and plans (SQLite FTS5 with
/// the trigram tokenizer: any substring of three characters or more is found through the index
/// by `LIKE`, case-insensitively, as `grep -i -F` would). `detail = none`: the index keeps
/// which rows hold a trigram, not where, a third of the size with positions; `LIKE` checks
/// each candidate row against the pattern, so positions are not needed. `columnsize = 0`: no
/// row of token counts a line (they serve ranking, which the search does not do).
///
/// Rows: one per cached output line (`TaskLines`: whole lines, whatever events they were
/// streamed in, SGR removed) and one per task for its title and plan. A row's rowid is
/// `num << 32 | line`, `num` being the task's number in `search_tasks` (given in the order
/// tasks are first seen, so a higher rowid is a newer task) and line 0 the title row; lines
/// numbered 2^32 or more are not indexed.
///
/// Kept current with the writes: whatever writes lines (`TaskLines.catchUpDue` mostly, which
/// `catchUp` runs first) notes per task the lowest line it wrote (`unindexed_from`; the open
/// line updated in place is among them), and `catchUp` indexes from there what is still
/// cached, replacing the row of a line indexed before: at most once every 30 s after an append
/// (`CacheStore.indexIfDue`) and before every search, so a search always sees every event
/// written. In a burst most lines
/// leave a task's window within a second and are never indexed at all. A trigger on
/// `task_lines` removes the row of every line deleted, by whatever pruning deletes it, when
/// its number is at or below the highest the task had indexed (`indexed_to`): the lines of a
/// burst pruned before any catch-up cost no index lookup. The index lives in the cache file,
/// so its pages count in the size the retention holds the file under. When it is missing (a
/// cache from before it, or dropped) its tables are made empty at opening (`prepare`: the
/// writes need them) and it is filled by the first catch-up or search (`ensure`), off the
/// thread that opens the cache (the UI thread at start), after assembling the lines of every
/// task cached without them (a cache from before lines were kept); when a query or `verify`
/// finds it damaged, it is dropped and built again.
enum OutputSearchIndex {
    /// The rowid step between two tasks: line numbers below it are indexed.
    static let taskStride: Int64 = 1 << 32

    /// A row's rowid (line 0: the task's title and plan), or nil when the task's number or
    /// the line number is outside what a rowid holds (numbers are read back from the file,
    /// where a damaged one can be anything): that row is not indexed, and nothing overflows.
    static func rowid(num: Int64, line: Int) -> Int64? {
        guard (1..<(1 << 31)).contains(num), (0..<taskStride).contains(Int64(line)) else { return nil }
        return num << 32 | Int64(line)
    }

    /// The index's tables and trigger (also the body of its schema migration).
    static let createSQL = """
        CREATE TABLE IF NOT EXISTS search_tasks (
            num INTEGER PRIMARY KEY,
            task_id TEXT NOT NULL UNIQUE,
            meta TEXT NOT NULL DEFAULT '',
            unindexed_from INTEGER,
            indexed_to INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE IF NOT EXISTS search_state (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
        CREATE VIRTUAL TABLE IF NOT EXISTS output_search USING fts5(
            text, tokenize = 'trigram', detail = none, columnsize = 0);
        INSERT INTO output_search (output_search, rank) VALUES ('automerge', \(automerge));
        CREATE TRIGGER IF NOT EXISTS output_search_prune AFTER DELETE ON task_lines
        WHEN old.line_no <= (
            SELECT s.indexed_to FROM search_tasks s JOIN task_activity a ON a.task_id = s.task_id WHERE a.num = old.num)
        BEGIN
            DELETE FROM output_search
            WHERE rowid = (
                SELECT s.num FROM search_tasks s JOIN task_activity a ON a.task_id = s.task_id WHERE a.num = old.num
            ) * 4294967296 + old.line_no;
        END;
        """

    /// At opening: makes any missing table of the index, empty and marked unfilled, so the
    /// writes that keep it current work; `ensure` fills it later.
    static func prepare(_ db: SQLiteDatabase) throws {
        let present = try db.scalarInt(
            "SELECT COUNT(*) FROM sqlite_schema WHERE name IN ('output_search', 'output_search_prune', 'search_tasks')")
        guard present != 3 else { return }
        try db.exec(createSQL + "DELETE FROM search_state WHERE key = 'built';")
    }

    /// Builds the index when it is missing or was never filled (with `keep` lines a task at
    /// most for tasks whose lines were never assembled). Cheap when it is there.
    static func ensure(_ db: SQLiteDatabase, keep: Int) throws {
        let built = try? db.scalarInt("SELECT value FROM search_state WHERE key = 'built'")
        let present = try db.scalarInt(
            "SELECT COUNT(*) FROM sqlite_schema WHERE name IN ('output_search', 'output_search_prune', 'search_tasks')")
        if built == 1 && present == 3 { return try mergeAtAutomerge(db) }
        try rebuild(db, keep: keep)
        HeapTrim.run()  // what a large mesh's rebuild took goes back to the system
    }

    /// Segments a level of the index holds before FTS5 merges them into one of the next level
    /// (its default is 4). Each catch-up writes a segment, and each merge rewrites what its
    /// segments hold: at 8, what a line's entries cost in merges over time is about two
    /// thirds of what it was at 4 (a level holds twice as many segments, log 8 against
    /// log 4 levels), and a search reads at most twice as many segments. In a 2-minute
    /// stream (four catch-ups) no merge happens at all: the `:grep` after it wrote 18 bytes
    /// per event less in process (`bench cache-stream`, docs/performance.md).
    static let automerge = 8

    /// An index made before `automerge` was set is told it once (a write), off the UI thread.
    private static func mergeAtAutomerge(_ db: SQLiteDatabase) throws {
        let current = try? db.scalarInt("SELECT v FROM output_search_config WHERE k = 'automerge'")
        guard current != Int64(automerge) else { return }
        try db.exec("INSERT INTO output_search (output_search, rank) VALUES ('automerge', \(automerge))")
    }

    /// Drops the index and fills it again from the cached lines (assembling those of tasks
    /// cached without them first) and the task table's titles.
    static func rebuild(_ db: SQLiteDatabase, keep: Int) throws {
        try db.transaction {
            try db.exec(
                """
                DROP TRIGGER IF EXISTS output_search_prune;
                DROP TABLE IF EXISTS output_search;
                DROP TABLE IF EXISTS search_tasks;
                DROP TABLE IF EXISTS search_state;
                """)
            try db.exec(createSQL)
            try TaskLines.assembleMissing(keep: keep, in: db)
            _ = try TaskLines.catchUpDue(keep: keep, in: db)
            var numbers = TaskNumbers()
            let lines = try db.prepare(
                "SELECT a.task_id, l.line_no, l.text FROM task_lines l JOIN task_activity a ON a.num = l.num ORDER BY l.num, l.line_no"
            )
            let add = try db.prepare("INSERT INTO output_search (rowid, text) VALUES (?1, ?2)")
            var top: [Int64: Int] = [:]
            while try lines.step() {
                guard let line = lines.seq(1) else { continue }
                guard let task = lines.text(0), let text = lines.text(2), !text.isEmpty, line < taskStride else {
                    continue
                }
                let num = try numbers.num(for: task, in: db)
                try addRow(num: num, line: line, text: text, with: add)
                top[num] = max(top[num] ?? 0, line)
            }
            let reach = try db.prepare("UPDATE search_tasks SET indexed_to = ?2 WHERE num = ?1")
            for (num, line) in top {
                try reach.bind(num, at: 1)
                try reach.bind(line, at: 2)
                try reach.step()
                reach.reset()
            }
            // The task table keeps titles, not plans: a rebuilt index finds tasks by title
            // until their list is saved again. A chunk at a time: a large mesh's titles are
            // never all in memory at once.
            var tasks: [MeshTask] = []
            let titles = try db.prepare("SELECT id, title, status FROM task_rows WHERE title != ''")
            while try titles.step() {
                if let id = titles.text(0) {
                    tasks.append(
                        MeshTask(id: id, title: titles.text(1), status: TaskStatus(rawValue: titles.text(2) ?? "")))
                }
                if tasks.count == 1_000 {
                    try indexTitles(of: tasks, numbers: &numbers, in: db)
                    tasks.removeAll(keepingCapacity: true)
                }
            }
            try indexTitles(of: tasks, numbers: &numbers, in: db)
            try db.exec("INSERT OR REPLACE INTO search_state (key, value) VALUES ('built', 1)")
        }
    }

    /// Marks, per task, the lowest line written that the index has not taken yet.
    static func markUnindexed(_ lowest: [String: Int], in db: SQLiteDatabase) throws {
        guard !lowest.isEmpty else { return }
        let mark = try db.prepare(
            """
            INSERT INTO search_tasks (task_id, unindexed_from) VALUES (?1, ?2)
            ON CONFLICT (task_id) DO UPDATE SET unindexed_from = MIN(COALESCE(unindexed_from, ?2), ?2)
            """)
        for (task, line) in lowest {
            try mark.bind(task, at: 1)
            try mark.bind(line, at: 2)
            try mark.step()
            mark.reset()
        }
    }

    /// Assembles the lines that wait for it (`TaskLines.catchUpDue`, `keep` lines a task),
    /// then indexes the cached lines of every marked task from its mark on (the row of a line
    /// indexed before, e.g. the open line updated since, is replaced), then clears the marks.
    /// Returns how many rows it added.
    @discardableResult
    static func catchUp(_ db: SQLiteDatabase, keep: Int) throws -> Int {
        try markUnindexed(try TaskLines.catchUpDue(keep: keep, in: db), in: db)
        let marked = try db.prepare(
            "SELECT num, task_id, unindexed_from, indexed_to FROM search_tasks WHERE unindexed_from IS NOT NULL")
        var tasks: [(num: Int64, id: String, from: Int, indexedTo: Int)] = []
        while try marked.step() {
            // A damaged mark indexes the task from its start.
            if let id = marked.text(1) {
                tasks.append((marked.int64(0), id, marked.seq(2) ?? 0, marked.seq(3) ?? 0))
            }
        }
        guard !tasks.isEmpty else { return 0 }
        let lines = try db.prepare(
            """
            SELECT line_no, text FROM task_lines WHERE num = \(TaskLines.taskNumber)
                AND line_no >= ?2 ORDER BY line_no
            """)
        let drop = try db.prepare("DELETE FROM output_search WHERE rowid = ?1")
        let add = try db.prepare("INSERT INTO output_search (rowid, text) VALUES (?1, ?2)")
        let clear = try db.prepare(
            "UPDATE search_tasks SET unindexed_from = NULL, indexed_to = MAX(indexed_to, ?2) WHERE num = ?1")
        var added = 0
        for task in tasks {
            try lines.bind(task.id, at: 1)
            try lines.bind(task.from, at: 2)
            var reached = 0
            while try lines.step() {
                guard let line = lines.seq(0), line < taskStride else { break }
                reached = line
                if line <= task.indexedTo, let key = rowid(num: task.num, line: line) {
                    try drop.run(key)
                }
                guard let text = lines.text(1), !text.isEmpty else { continue }
                try addRow(num: task.num, line: line, text: text, with: add)
                added += 1
            }
            lines.reset()
            try clear.bind(task.num, at: 1)
            try clear.bind(reached, at: 2)
            try clear.step()
            clear.reset()
        }
        return added
    }

    /// Merges the index's segments into one (FTS5's `optimize`), which is when the rows deleted
    /// from it leave its pages: until then a delete only adds an entry (`CapMeter`). Costs a
    /// rewrite of the index; run only while the file is over its cap.
    static func applyDeletes(_ db: SQLiteDatabase) throws {
        try db.exec("INSERT INTO output_search (output_search) VALUES ('optimize')")
    }

    /// FTS5's own check of the index against its content; false when it is damaged.
    static func isIntact(_ db: SQLiteDatabase) -> Bool {
        (try? db.exec("INSERT INTO output_search (output_search) VALUES ('integrity-check')")) != nil
    }

    /// A task's title and plan are indexed up to this many bytes: a hostile list of huge titles
    /// must not grow the index past the snapshot's own budget.
    static let maxMetaBytes = 1_024

    /// The longest prefix of `text` within `bytes` UTF-8 bytes, cut between characters.
    static func bounded(_ text: String, bytes: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > bytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: max(0, bytes))
        // Back off continuation bytes so the cut falls between characters.
        while end > utf8.startIndex && utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    static func addRow(num: Int64, line: Int, text: String, with statement: SQLiteStatement) throws {
        guard let key = rowid(num: num, line: line) else { return }
        try statement.bind(key, at: 1)
        try statement.bind(text, at: 2)
        try statement.step()
        statement.reset()
    }

    /// Indexes the title and plan of each task whose title or plan changed since last indexed.
    static func indexTitles(of tasks: [MeshTask], numbers: inout TaskNumbers, in db: SQLiteDatabase) throws {
        let current = try db.prepare("SELECT meta FROM search_tasks WHERE task_id = ?1")
        let remember = try db.prepare("UPDATE search_tasks SET meta = ?2 WHERE task_id = ?1")
        let drop = try db.prepare("DELETE FROM output_search WHERE rowid = ?1")
        let add = try db.prepare("INSERT INTO output_search (rowid, text) VALUES (?1, ?2)")
        for task in tasks {
            let meta = bounded(
                [task.title ?? "", task.plan].filter { !$0.isEmpty }.joined(separator: "\n"), bytes: maxMetaBytes)
            let num = try numbers.num(for: task.id, in: db)
            try current.bind(task.id, at: 1)
            let known = try current.step() ? current.text(0) : nil
            current.reset()
            guard known != meta else { continue }
            guard let key = rowid(num: num, line: 0) else { continue }
            try drop.bind(key, at: 1)
            try drop.step()
            drop.reset()
            if !meta.isEmpty { try addRow(num: num, line: 0, text: UntrustedText.clean(meta), with: add) }
            try remember.bind(task.id, at: 1)
            try remember.bind(meta, at: 2)
            try remember.step()
            remember.reset()
        }
    }

    /// The longest piece of the user's text without a LIKE wildcard (`%`, `_`): what the index
    /// is asked for. FTS5 uses the trigram index for `LIKE '%piece%'` (three characters or
    /// more) but not with an ESCAPE clause, so the wildcards are left out of the lookup rather
    /// than escaped, and every row found is checked for the whole text. User text is never
    /// FTS5 query syntax: no MATCH expression is built from it.
    static func likeFragment(_ pattern: String) -> String {
        let pieces = pattern.split(whereSeparator: { $0 == "%" || $0 == "_" })
        return String(pieces.max { $0.count < $1.count } ?? "")
    }
}
