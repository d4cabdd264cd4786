import Foundation

/// One line of cached output (or a task's title or plan) that holds the pattern.
public struct OutputSearchHit: Sendable, Equatable {
    public var taskID: String
    /// The output event's seq; 0 for the task's title and plan.
    public var seq: Int
    /// The line of the event's text that holds the pattern (SGR removed, one line).
    public var line: String
    /// When the task last had events cached, if it had any.
    public var lastActive: Date?

    public init(taskID: String, seq: Int, line: String, lastActive: Date?) {
        self.taskID = taskID
        self.seq = seq
        self.line = line
        self.lastActive = lastActive
    }
}

extension CacheStore {
    /// Most hits a search returns.
    public static let maxSearchHits = 500

    /// The cached output lines, titles and plans holding `pattern` (case-insensitive, as typed:
    /// no operator or wildcard), newest first: tasks in the reverse order they were first
    /// cached, each task's newest lines first, at most `limit`. A damaged index is built again
    /// and the search run once more.
    public func searchOutput(_ pattern: String, limit: Int = CacheStore.maxSearchHits) throws(CacheError)
        -> [OutputSearchHit]
    {
        let needle = pattern.trimmingCharacters(in: .newlines)
        guard !needle.isEmpty, limit > 0 else { return [] }
        let bound = min(limit, Self.maxSearchHits)
        do throws(CacheError) {
            return try withDatabase(markingDamage: false) { db in try Self.search(needle, limit: bound, in: db) }
        } catch {
            // A damaged or missing index (not a closed store, a full disk or a lock).
            switch error {
            case .corrupt, .sqlite: return try rebuildAndSearch(needle, limit: bound)
            default: throw error
            }
        }
    }

    private func rebuildAndSearch(_ needle: String, limit: Int) throws(CacheError) -> [OutputSearchHit] {
        try withDatabase { db in
            try OutputSearchIndex.rebuild(db)
            return try Self.search(needle, limit: limit, in: db)
        }
    }

    /// FTS5's integrity check of the index; a damaged index is built again. Returns false when
    /// it had to be rebuilt.
    @discardableResult
    public func verifySearchIndex() throws(CacheError) -> Bool {
        try withDatabase { db in
            if OutputSearchIndex.isIntact(db) { return true }
            try OutputSearchIndex.rebuild(db)
            return false
        }
    }

    /// Rows in the index (output events plus title rows).
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
        try withDatabase { db in try Self.usedBytes(db) }
    }

    /// The baseline a search is measured against (`make bench`): a `LIKE` scan of the cached
    /// events' JSON, newest 500, without the index. Returns the rows found.
    package func scanOutputWithoutIndex(_ pattern: String) throws(CacheError) -> Int {
        try withDatabase { db in
            let scan = try db.prepare(
                "SELECT task_id, seq FROM task_events WHERE json LIKE ?1 ORDER BY task_id DESC, seq DESC LIMIT 500")
            try scan.bind("%\(pattern)%", at: 1)
            var n = 0
            while try scan.step() { n += 1 }
            return n
        }
    }

    private static func search(_ needle: String, limit: Int, in db: SQLiteDatabase) throws -> [OutputSearchHit] {
        // What was written since the last catch-up first: a search sees every cached event.
        try OutputSearchIndex.ensure(db)
        _ = try db.transaction { try OutputSearchIndex.catchUp(db) }
        // The index finds the rows holding the pattern's longest piece without a LIKE wildcard
        // (through the trigram index when it has three characters or more, else by a scan);
        // each row is then checked for the whole pattern, as text. Newest rows first, so the
        // walk stops at `limit`.
        let select = try db.prepare(
            """
            SELECT o.rowid, o.text, s.task_id, a.last_at FROM output_search o
            JOIN search_tasks s ON s.num = o.rowid >> 32
            LEFT JOIN task_activity a ON a.task_id = s.task_id
            WHERE o.text LIKE ?1 ORDER BY o.rowid DESC
            """)
        try select.bind("%" + OutputSearchIndex.likeFragment(needle) + "%", at: 1)
        var hits: [OutputSearchHit] = []
        while hits.count < limit, try select.step() {
            guard let text = select.text(1), let task = select.text(2),
                text.range(of: needle, options: .caseInsensitive) != nil
            else { continue }
            let seq = Int(select.int64(0) & (OutputSearchIndex.taskStride - 1))
            hits.append(
                OutputSearchHit(
                    taskID: task, seq: seq, line: matchingLine(in: text, needle: needle),
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
        _ = try withDatabase { db in
            try OutputSearchIndex.ensure(db)
            return try db.transaction { try OutputSearchIndex.catchUp(db) }
        }
    }

    /// Indexes the titles and plans of tasks just saved from a list (those that changed).
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
