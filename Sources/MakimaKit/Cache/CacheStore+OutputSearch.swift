import Foundation

/// One line of cached output (or a task's title or plan) that holds the pattern.
public struct OutputSearchHit: Sendable, Equatable {
    public var taskID: String
    /// The line's number in the task's output (`TaskLines`: from 1); 0 for its title and plan.
    public var lineNumber: Int
    /// The seq of the event the line begins in; 0 for the title and plan.
    public var seq: Int
    /// The whole line (SGR removed, surrounding blanks trimmed); for the title and plan, its
    /// line that holds the pattern.
    public var line: String
    /// When the task last had events cached, if it had any.
    public var lastActive: Date?

    public init(taskID: String, lineNumber: Int, seq: Int, line: String, lastActive: Date?) {
        self.taskID = taskID
        self.lineNumber = lineNumber
        self.seq = seq
        self.line = line
        self.lastActive = lastActive
    }
}

extension CacheStore {
    /// Most hits a search returns.
    public static let maxSearchHits = 500

    /// The cached output lines, titles and plans holding `pattern` (case-insensitive, as typed:
    /// no operator or wildcard), newest first: tasks in the reverse order the index first took
    /// them (output at the catch-up a search runs, titles as they are cached), each task's newest lines first, at most `limit`. Each hit is one whole line,
    /// however the stream cut it into events; several lines of one event are several hits. A damaged index is built again
    /// and the search run once more.
    public func searchOutput(_ pattern: String, limit: Int = CacheStore.maxSearchHits) throws(CacheError)
        -> [OutputSearchHit]
    {
        let needle = pattern.trimmingCharacters(in: .newlines)
        guard !needle.isEmpty, limit > 0 else { return [] }
        let bound = min(limit, Self.maxSearchHits)
        do throws(CacheError) {
            let keep = eventsKeptPerTask
            return try withDatabase(markingDamage: false) { db in
                try Self.search(needle, limit: bound, keep: keep, in: db)
            }
        } catch {
            // A damaged or missing index (not a closed store, a full disk or a lock).
            switch error {
            case .corrupt, .sqlite: return try rebuildAndSearch(needle, limit: bound)
            default: throw error
            }
        }
    }

    private func rebuildAndSearch(_ needle: String, limit: Int) throws(CacheError) -> [OutputSearchHit] {
        let keep = eventsKeptPerTask
        return try withDatabase { db in
            try OutputSearchIndex.rebuild(db, keep: keep)
            return try Self.search(needle, limit: limit, keep: keep, in: db)
        }
    }

    /// FTS5's integrity check of the index; a damaged index is built again. Returns false when
    /// it had to be rebuilt.
    @discardableResult
    public func verifySearchIndex() throws(CacheError) -> Bool {
        let keep = eventsKeptPerTask
        return try withDatabase { db in
            if OutputSearchIndex.isIntact(db) { return true }
            try OutputSearchIndex.rebuild(db, keep: keep)
            return false
        }
    }

    /// Rows in the index (output lines plus title rows).
    package func searchIndexCount() throws(CacheError) -> Int {
        try withDatabase { db in Int(try db.scalarInt("SELECT COUNT(*) FROM output_search") ?? 0) }
    }

    /// The pages of these tables and indexes (SQLite's `dbstat`): where tests damage a file.
    package func pages(of tables: [String]) throws(CacheError) -> [Int64] {
        try withDatabase { db in
            let select = try db.prepare("SELECT pageno FROM dbstat WHERE name = ?1")
            var pages: [Int64] = []
            for table in tables {
                try select.bind(table, at: 1)
                while try select.step() { pages.append(select.int64(0)) }
                select.reset()
            }
            return pages
        }
    }

    /// Bytes of the file's pages in use (the size the cap is held to).
    package func usedBytes() throws(CacheError) -> Int {
        try withDatabase { db in try CacheSpaceManager.usedBytes(db) }
    }

    /// The baseline a search is measured against (`make bench`): a `LIKE` scan of the cached
    /// lines, newest 500, without the index. Returns the rows found.
    package func scanOutputWithoutIndex(_ pattern: String) throws(CacheError) -> Int {
        try withDatabase { db in
            let scan = try db.prepare(
                "SELECT num, line_no FROM task_lines WHERE text LIKE ?1 ORDER BY num DESC, line_no DESC LIMIT 500"
            )
            try scan.bind("%\(pattern)%", at: 1)
            var n = 0
            while try scan.step() { n += 1 }
            return n
        }
    }

    private static func search(_ needle: String, limit: Int, keep: Int, in db: SQLiteDatabase) throws
        -> [OutputSearchHit]
    {
        // What was written since the last catch-up first: a search sees every cached line.
        try OutputSearchIndex.ensure(db, keep: keep)
        _ = try db.transaction { try OutputSearchIndex.catchUp(db, keep: keep) }
        // The index finds the rows holding the pattern's longest piece without a LIKE wildcard
        // (through the trigram index when it has three characters or more, else by a scan);
        // each row is then checked for the whole pattern, as text. Newest rows first, so the
        // walk stops at `limit`.
        let select = try db.prepare(
            """
            SELECT o.rowid, o.text, s.task_id, a.last_at, l.first_seq FROM output_search o
            JOIN search_tasks s ON s.num = o.rowid >> 32
            LEFT JOIN task_activity a ON a.task_id = s.task_id
            LEFT JOIN task_lines l ON l.num = a.num AND l.line_no = (o.rowid & 4294967295)
            WHERE o.text LIKE ?1 ORDER BY o.rowid DESC
            """)
        try select.bind("%" + OutputSearchIndex.likeFragment(needle) + "%", at: 1)
        var hits: [OutputSearchHit] = []
        while hits.count < limit, try select.step() {
            guard let text = select.text(1), let task = select.text(2),
                text.range(of: needle, options: .caseInsensitive) != nil
            else { continue }
            let number = Int(select.int64(0) & (OutputSearchIndex.taskStride - 1))
            hits.append(
                OutputSearchHit(
                    taskID: task, lineNumber: number, seq: number == 0 ? 0 : select.int(4),
                    line: matchingLine(in: text, needle: needle),
                    lastActive: select.date(3)))
        }
        return hits
    }

    /// The first line of `text` that holds `needle` (ignoring case), else its first line.
    static func matchingLine(in text: String, needle: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let hit = lines.first { $0.range(of: needle, options: .caseInsensitive) != nil } ?? lines.first ?? ""
        return String(hit).trimmingCharacters(in: .whitespaces)
    }

    /// Brings the search index up to the events written, when it last did so a second ago or
    /// more (the writer calls this after each append; a search always does it first).
    func indexIfDue(now: Date) throws(CacheError) {
        let interval = indexInterval.withLock { $0 }
        let due = lastIndexed.withLock { last in
            guard last.map({ now.timeIntervalSince($0) >= interval }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        try indexPendingLines()
    }

    /// Brings the search index up to every line written now (what a search does first): the
    /// ingest benchmark's clock stops once the burst's lines are searchable.
    package func indexPendingLines() throws(CacheError) {
        let keep = eventsKeptPerTask
        _ = try withDatabase { db in
            try OutputSearchIndex.ensure(db, keep: keep)
            return try db.transaction { try OutputSearchIndex.catchUp(db, keep: keep) }
        }
    }

    /// Indexes the titles of tasks just written to the task table (those that changed; a
    /// list's rows carry no plan, `titlesOnly`).
    func indexTaskTitles(_ tasks: [MeshTask]) throws(CacheError) {
        guard !tasks.isEmpty else { return }
        try withDatabase { db in
            try db.transaction {
                var numbers = OutputSearchIndex.TaskNumbers()
                try OutputSearchIndex.indexTitles(of: tasks, numbers: &numbers, in: db)
            }
        }
    }
}
