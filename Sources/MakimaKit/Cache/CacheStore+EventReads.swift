import Foundation

/// Reading the cached events back (`task_chunks`, `EventChunk`). A task's window is its
/// newest `eventsKeptPerTask` seq numbers: a chunk can reach below it (its older events stay
/// until the whole chunk is past the window), so every read keeps to the window itself.
/// A damaged chunk is skipped alone: the events of every other chunk still read.
extension CacheStore {
    /// Events of a task with `seq > afterSeq`, oldest first, at most `limit`.
    public func events(taskID: String, afterSeq: Int = 0, limit: Int = 2_000) throws(CacheError) -> [TaskEvent] {
        let keep = eventsKeptPerTask
        return try withDatabase { db in
            guard limit > 0, let task = try Self.chunkedTask(taskID, in: db) else { return [] }
            let select = try db.prepare(
                "SELECT first_seq, last_seq, text, pieces FROM task_chunks WHERE num = ?1 AND last_seq > ?2 ORDER BY last_seq"
            )
            var last = max(afterSeq, task.top - keep)
            try select.bind(task.num, at: 1)
            try select.bind(last, at: 2)
            var events: [TaskEvent] = []
            while events.count < limit, try select.step() {
                for event in Self.chunkEvents(select, taskID: taskID) ?? [] where event.seq > last {
                    events.append(event)
                    last = event.seq
                    if events.count == limit { break }
                }
            }
            return events
        }
    }

    /// The newest `limit` events of a task, oldest first (what a pane shows on start-up).
    public func latestEvents(taskID: String, limit: Int = 2_000) throws(CacheError) -> [TaskEvent] {
        let keep = eventsKeptPerTask
        return try withDatabase { db in
            guard limit > 0, let task = try Self.chunkedTask(taskID, in: db) else { return [] }
            let floor = task.top - keep
            let select = try db.prepare(
                """
                SELECT first_seq, last_seq, text, pieces FROM task_chunks WHERE num = ?1 AND last_seq > ?2
                ORDER BY last_seq DESC
                """)
            try select.bind(task.num, at: 1)
            try select.bind(floor, at: 2)
            // Newest chunk first, until they hold `limit` events.
            var chunks: [[TaskEvent]] = []
            var held = 0
            while held < limit, try select.step() {
                guard let events = Self.chunkEvents(select, taskID: taskID) else { continue }
                chunks.append(events)
                held += events.count
            }
            var events: [TaskEvent] = []
            events.reserveCapacity(min(held, limit))
            var last = floor
            for chunk in chunks.reversed() {
                for event in chunk where event.seq > last {
                    events.append(event)
                    last = event.seq
                }
            }
            return Array(events.suffix(limit))
        }
    }

    /// The highest cached seq of every task with events: the `last_seen` of a WebSocket resync.
    /// Pruning never removes a task's newest event, so this survives pruning.
    public func lastSeenSeqs() throws(CacheError) -> [String: Int] {
        try withDatabase { db in
            try db.prepare(
                """
                SELECT a.task_id, c.top FROM (SELECT num, MAX(last_seq) AS top FROM task_chunks GROUP BY num) c
                JOIN task_activity a ON a.num = c.num
                """
            ).keyedByText { $0.seq(1) }
        }
    }

    /// Per task, the highest seq reached from its oldest cached event without a hole. Equal to
    /// `lastSeenSeqs()` unless an event went missing; resyncing from here (instead of the max)
    /// fetches the hole again, and what was already cached is dropped as a duplicate. A chunk
    /// has no hole, so a hole is between two chunks.
    public func contiguousSeqs() throws(CacheError) -> [String: Int] {
        try withDatabase { db in
            let select = try db.prepare(
                """
                SELECT a.task_id, MIN(r.last_seq) FROM (
                    SELECT num, last_seq, LEAD(first_seq) OVER (PARTITION BY num ORDER BY last_seq) AS next
                    FROM task_chunks) r
                JOIN task_activity a ON a.num = r.num
                WHERE r.next IS NULL OR r.next != r.last_seq + 1
                GROUP BY r.num
                """)
            var seqs: [String: Int] = [:]
            while try select.step() {
                if let task = select.text(0), let seq = select.seq(1) { seqs[task] = seq }
            }
            return seqs
        }
    }

    /// How many events are cached for a task (within its window).
    public func eventCount(taskID: String) throws(CacheError) -> Int {
        let keep = eventsKeptPerTask
        return try withDatabase { db in
            guard let task = try Self.chunkedTask(taskID, in: db) else { return 0 }
            let select = try db.prepare(
                """
                SELECT COALESCE(SUM(MAX(0, last_seq - MAX(first_seq, ?2 + 1) + 1)), 0) FROM task_chunks
                WHERE num = ?1 AND last_seq > ?2
                """)
            try select.bind(task.num, at: 1)
            try select.bind(task.top - keep, at: 2)
            return try select.step() ? select.count(0) : 0
        }
    }

    /// A task's number in `task_activity` and its highest cached seq; nil when it has no
    /// chunk (a damaged seq is not a top: the window is taken from the highest sane one).
    static func chunkedTask(_ taskID: String, in db: SQLiteDatabase) throws -> (num: Int64, top: Int)? {
        let select = try db.prepare(
            """
            SELECT a.num, (SELECT MAX(last_seq) FROM task_chunks c WHERE c.num = a.num AND c.last_seq BETWEEN 1 AND ?2)
            FROM task_activity a WHERE a.task_id = ?1
            """)
        try select.bind(taskID, at: 1)
        try select.bind(TaskEventSequencer.maxSeq, at: 2)
        guard try select.step(), let top = select.seq(1) else { return nil }
        return (select.int64(0), top)
    }

    /// The events of the chunk row `select` is on (columns first_seq, last_seq, text, pieces
    /// from `column`); nil for a damaged row.
    static func chunkEvents(_ select: SQLiteStatement, from column: Int32 = 0, taskID: String) -> [TaskEvent]? {
        guard let first = select.seq(column), let last = select.seq(column + 1) else { return nil }
        return EventChunk.decode(
            taskID: taskID, firstSeq: first, lastSeq: last, text: select.bytes(column + 2),
            pieces: select.bytes(column + 3))
    }

    /// Output events through the hand decoder (the bulk of a task's history, read on start-up
    /// and when a view opens), every other row through the Codable path.
    static func decodeEvents(_ rows: [String]) -> [TaskEvent] {
        var events: [TaskEvent] = []
        events.reserveCapacity(rows.count)
        for row in rows {
            if let e = OutputFrameDecoder.decode(row) {
                events.append(e)
            } else if let e = decodeRows(TaskEvent.self, [row]).items.first {
                events.append(e)
            }
        }
        return events
    }
}
