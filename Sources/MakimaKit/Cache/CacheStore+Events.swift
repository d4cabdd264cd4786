import Foundation

/// Task events: at most one per (task, seq); per task, the events of the newest
/// `eventsKeptPerTask` seq numbers are kept.
extension CacheStore {
    /// Stores events, dropping any whose (task_id, seq) is already cached, and prunes every task
    /// it touched to the seqs in (max - eventsKeptPerTask, max]. Returns how many were new
    /// (events older than that window count, though pruned at once).
    ///
    /// Up to `maxEventsPerTransaction` events are written per transaction. If a later
    /// transaction fails, the earlier ones stay committed; appending is idempotent, so the
    /// caller may simply retry the whole array.
    @discardableResult
    public func appendEvents(_ events: [TaskEvent]) throws(CacheError) -> Int {
        let encoder = MakimaJSON.encoder()
        var rows: [EventRow] = []
        rows.reserveCapacity(events.count)
        for event in events { rows.append(EventRow(event, json: try Self.encodeJSON(event, with: encoder))) }
        let keep = eventsKeptPerTask
        var inserted = 0
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + Self.maxEventsPerTransaction, rows.count)]
            inserted += try withDatabase { db in try db.transaction { try Self.insert(chunk, keep: keep, into: db) } }
            start += chunk.count
        }
        return inserted
    }

    /// Events of a task with `seq > afterSeq`, oldest first, at most `limit`.
    public func events(taskID: String, afterSeq: Int = 0, limit: Int = 2_000) throws(CacheError) -> [TaskEvent] {
        let rows: [String] = try withDatabase { db in
            let select = try db.prepare(
                "SELECT json FROM task_events WHERE task_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3")
            try select.bind(taskID, at: 1)
            try select.bind(afterSeq, at: 2)
            try select.bind(limit, at: 3)
            return try Self.jsonColumn(select)
        }
        return Self.decodeRows(TaskEvent.self, rows).items
    }

    /// The newest `limit` events of a task, oldest first (what a pane shows on start-up).
    public func latestEvents(taskID: String, limit: Int = 2_000) throws(CacheError) -> [TaskEvent] {
        let rows: [String] = try withDatabase { db in
            let select = try db.prepare(
                """
                SELECT json FROM (SELECT seq, json FROM task_events WHERE task_id = ?1 ORDER BY seq DESC LIMIT ?2)
                ORDER BY seq
                """)
            try select.bind(taskID, at: 1)
            try select.bind(limit, at: 2)
            return try Self.jsonColumn(select)
        }
        return Self.decodeRows(TaskEvent.self, rows).items
    }

    /// The highest cached seq of every task with events: the `last_seen` of a WebSocket resync.
    /// Pruning never removes a task's newest event, so this survives pruning.
    public func lastSeenSeqs() throws(CacheError) -> [String: Int] {
        try withDatabase { db in
            let select = try db.prepare("SELECT task_id, MAX(seq) FROM task_events GROUP BY task_id")
            var seqs: [String: Int] = [:]
            while try select.step() {
                if let task = select.text(0) { seqs[task] = select.int(1) }
            }
            return seqs
        }
    }

    /// Per task, the highest seq reached from its oldest cached event without a hole. Equal to
    /// `lastSeenSeqs()` unless an event went missing; resyncing from here (instead of the max)
    /// fetches the hole again, and what was already cached is dropped as a duplicate.
    public func contiguousSeqs() throws(CacheError) -> [String: Int] {
        try withDatabase { db in
            let select = try db.prepare(
                """
                SELECT task_id, MIN(seq) FROM (
                    SELECT task_id, seq, LEAD(seq) OVER (PARTITION BY task_id ORDER BY seq) AS next FROM task_events)
                WHERE next IS NULL OR next != seq + 1
                GROUP BY task_id
                """)
            var seqs: [String: Int] = [:]
            while try select.step() {
                if let task = select.text(0) { seqs[task] = select.int(1) }
            }
            return seqs
        }
    }

    /// How many events are cached for a task.
    public func eventCount(taskID: String) throws(CacheError) -> Int {
        try withDatabase { db in
            let select = try db.prepare("SELECT COUNT(*) FROM task_events WHERE task_id = ?1")
            try select.bind(taskID, at: 1)
            return try select.step() ? select.int(0) : 0
        }
    }

    private static func insert(_ rows: ArraySlice<EventRow>, keep: Int, into db: SQLiteDatabase) throws -> Int {
        let insert = try db.prepare(
            "INSERT OR IGNORE INTO task_events (task_id, seq, event_id, type, json) VALUES (?1, ?2, ?3, ?4, ?5)")
        var inserted = 0
        var touched: Set<String> = []
        for row in rows {
            try insert.bind(row.taskID, at: 1)
            try insert.bind(row.seq, at: 2)
            try insert.bind(row.eventID, at: 3)
            try insert.bind(row.type, at: 4)
            try insert.bind(row.json, at: 5)
            try insert.step()
            inserted += db.changes
            insert.reset()
            touched.insert(row.taskID)
        }
        // The window is the newest `keep` seq numbers: exactly `keep` events, since the server's
        // seqs have no holes. MAX(seq) is one index lookup; counting from the top instead would
        // walk `keep` entries per task per batch (measured: 3x slower with 50 busy tasks).
        let prune = try db.prepare(
            """
            DELETE FROM task_events WHERE task_id = ?1
              AND seq <= (SELECT MAX(seq) FROM task_events WHERE task_id = ?1) - ?2
            """)
        for task in touched {
            try prune.bind(task, at: 1)
            try prune.bind(keep, at: 2)
            try prune.step()
            prune.reset()
        }
        return inserted
    }

    private static func jsonColumn(_ select: SQLiteStatement) throws -> [String] {
        var rows: [String] = []
        while try select.step() { rows.append(select.text(0) ?? "") }
        return rows
    }
}

/// An event ready to store: its key columns and its JSON.
struct EventRow: Sendable {
    let taskID: String
    let seq: Int
    let eventID: Int64
    let type: String
    let json: String

    init(_ event: TaskEvent, json: String) {
        taskID = event.taskID
        seq = event.seq
        eventID = event.eventID
        type = event.type.rawValue
        self.json = json
    }
}
