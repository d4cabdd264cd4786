import Foundation

/// One write transaction of events: their tasks' activity rows (and numbers), their chunks
/// (`ChunkWriter`), the per-minute counts, and the lines of tasks assembled now.
extension CacheStore {
    /// Inserts the rows as chunks, counts the new ones in the activity history (with
    /// `leftOutNew` new events left out below the window, counted as output now), and
    /// assembles the lines of the tasks in `assembling` (in `skips`, events were left out
    /// before these rows: their lines are counted first), marking what was written for the
    /// search index. Returns how many rows were new.
    static func insert(
        _ rows: ArraySlice<EventRow>, keep: Int, leftOutNew: Int, skips: [String: SkippedLines],
        assembling: Set<String>, nums: [String: Int64], now: Double, into db: SQLiteDatabase
    ) throws -> Int {
        var byTask: [String: [Int]] = [:]
        var order: [String] = []
        for i in rows.indices {
            if byTask[rows[i].taskID] == nil { order.append(rows[i].taskID) }
            byTask[rows[i].taskID, default: []].append(i)
        }
        let writer = try ChunkWriter(db, keep: keep)
        var isNew = [Bool](repeating: false, count: rows.count)
        var written: [String: Int] = [:]
        var assembled: [Int] = []
        var trims: [(task: String, num: Int64, floor: Int, eager: Bool)] = []
        var overSlack = false
        for task in order {
            guard let num = nums[task], let indices = byTask[task] else { continue }
            let eager = assembling.contains(task)
            // What earlier batches left for the catch-up comes before the skipped lines.
            if eager, let from = try TaskLines.catchUp(task: task, num: num, keep: keep, in: db) {
                written[task] = from
            }
            let outcome = try writer.write(indices.map { rows[$0] }, num: num, assembled: eager)
            for (k, i) in indices.enumerated() { isNew[i - rows.startIndex] = outcome.isNew[k] }
            trims.append((task, num, outcome.floor, eager))
            overSlack = overSlack || outcome.overSlack
            if eager { assembled += indices }
        }
        // One task past its window by the slack trims every task of the batch: their oldest
        // chunks were written side by side, and their pages are rewritten once, together.
        for t in trims where overSlack {
            if let from = try writer.trim(t.num, task: t.task, floor: t.floor, assembled: t.eager) {
                written[t.task] = min(written[t.task] ?? from, from)
            }
        }
        try addActivity(counts(of: rows, isNew: isNew, leftOutNew: leftOutNew, now: now), now: minute(now), in: db)
        if !assembled.isEmpty {
            let subset = ArraySlice(assembled.map { rows[$0] })
            let news = assembled.map { isNew[$0 - rows.startIndex] }
            let lines = try TaskLines.assemble(subset, isNew: news, skips: skips, keep: keep, nums: nums, in: db)
            written.merge(lines) { min($0, $1) }
        }
        try OutputSearchIndex.markUnindexed(written, in: db)
        return isNew.filter { $0 }.count
    }

    private static func minute(_ now: Double) -> Int { ActivityMinute.minute(of: Date(timeIntervalSince1970: now)) }

    /// The per-minute counts of the new rows, and of `leftOutNew` events counted now.
    private static func counts(of rows: ArraySlice<EventRow>, isNew: [Bool], leftOutNew: Int, now: Double)
        -> [Int: ActivityMinute]
    {
        let minute = minute(now)
        var activity: [Int: ActivityMinute] = [:]
        if leftOutNew > 0 { activity[minute] = ActivityMinute(minute: minute, output: leftOutNew) }
        for (k, row) in rows.enumerated() where isNew[k] && row.activity != .none {
            let m = activityMinute(of: row.countedAt, now: minute)
            var c = activity[m] ?? ActivityMinute(minute: m)
            switch row.activity {
            case .output: c.output += 1
            case .completed: c.completed += 1
            case .failed: c.failed += 1
            case .none: break
            }
            activity[m] = c
        }
        return activity
    }

    /// When each task last had events, whether its last status (if any) is final, and for the
    /// tasks in `due`, that their lines wait for the catch-up, `tasks` least recently active
    /// first. Returns each task's number.
    ///
    /// A known task's row is updated, and its mark set only when it has none: an upsert (an
    /// `INSERT` on this AUTOINCREMENT table) wrote `sqlite_sequence`, and setting `lines_due`
    /// to what it held rewrote its index's entry, two pages a commit of a stream for nothing.
    static func recordActivity(
        of tasks: some Sequence<String>, finished: [String: Bool], due: Set<String>, now: Double,
        in db: SQLiteDatabase
    ) throws -> [String: Int64] {
        let update = try db.prepare(
            """
            UPDATE task_activity SET last_at = ?2, finished = COALESCE(?3, finished) WHERE task_id = ?1
            RETURNING num, lines_due IS NULL
            """)
        let mark = try db.prepare("UPDATE task_activity SET lines_due = 1 WHERE num = ?1")
        let insert = try db.prepare(
            """
            INSERT INTO task_activity (task_id, last_at, finished, lines_due) VALUES (?1, ?2, COALESCE(?3, 0), ?4)
            RETURNING num
            """)
        var nums: [String: Int64] = [:]
        // A microsecond apart in the order given: the tasks of one batch share its clock, and
        // the cap's trimming (least recently active first) must not pick among them by chance.
        for (i, task) in tasks.enumerated() {
            let at = now + Double(i) * 1e-6
            let done = finished[task].map { $0 ? 1 : 0 }
            try update.bind(task, at: 1)
            try update.bind(at, at: 2)
            try update.bind(done, at: 3)
            if try update.step() {
                let num = update.int64(0)
                let unmarked = update.int(1) != 0
                update.reset()
                nums[task] = num
                if unmarked && due.contains(task) { try mark.run(num) }
                continue
            }
            update.reset()
            try insert.bind(task, at: 1)
            try insert.bind(at, at: 2)
            try insert.bind(done, at: 3)
            try insert.bind(due.contains(task) ? 1 : nil, at: 4)
            if try insert.step() { nums[task] = insert.int64(0) }
            insert.reset()
        }
        return nums
    }
}

/// Removes a task from the cache's event tables: its lines and its activity row, and with
/// the row (a trigger, `task_chunks_leave`) its chunks.
struct TaskRemoval {
    let count: SQLiteStatement
    let lines: SQLiteStatement
    let activity: SQLiteStatement

    init(_ db: SQLiteDatabase) throws {
        count = try db.prepare(
            """
            SELECT COALESCE(SUM(MAX(0, c.last_seq - c.first_seq + 1)), 0) FROM task_chunks c
            JOIN task_activity a ON a.num = c.num WHERE a.task_id = ?1
            """)
        lines = try db.prepare("DELETE FROM task_lines WHERE num = \(TaskLines.taskNumber)")
        activity = try db.prepare("DELETE FROM task_activity WHERE task_id = ?1")
    }

    /// How many events went.
    func remove(_ task: String) throws -> Int {
        try count.bind(task, at: 1)
        let removed = try count.step() ? count.count(0) : 0
        count.reset()
        try lines.run(task)
        try activity.run(task)
        return removed
    }
}

/// Cuts a task down to its newest event (the cap's trimming): its other chunks go, and its
/// newest chunk is written again holding its last event alone.
struct ChunkTrim {
    let db: SQLiteDatabase
    let newest: SQLiteStatement
    let older: SQLiteStatement
    let rewrite: SQLiteStatement
    let drop: SQLiteStatement

    init(_ db: SQLiteDatabase) throws {
        self.db = db
        newest = try db.prepare(
            """
            SELECT id, first_seq, last_seq, text, pieces FROM task_chunks
            WHERE num = ?1 AND last_seq BETWEEN 1 AND \(TaskEventSequencer.maxSeq) ORDER BY last_seq DESC LIMIT 1
            """)
        older = try db.prepare(
            """
            SELECT COALESCE(SUM(MAX(0, last_seq - first_seq + 1)), 0), COUNT(*) FROM task_chunks
            WHERE num = ?1 AND id != ?2
            """)
        rewrite = try db.prepare(
            "UPDATE task_chunks SET first_seq = ?2, last_seq = ?2, text = ?3, pieces = ?4 WHERE id = ?1")
        drop = try db.prepare("DELETE FROM task_chunks WHERE num = ?1 AND id != ?2")
    }

    /// Returns how many events went.
    func toNewest(_ num: Int64, taskID: String) throws -> Int {
        try newest.bind(num, at: 1)
        defer { newest.reset() }
        guard try newest.step() else { return 0 }
        let id = newest.int64(0)
        let events = CacheStore.chunkEvents(newest, from: 1, taskID: taskID)
        try older.bind(num, at: 1)
        try older.bind(id, at: 2)
        var removed = try older.step() ? older.count(0) : 0
        older.reset()
        try drop.run(num, id)
        guard let events, let last = events.last else {
            // A damaged newest chunk goes too.
            try drop.run(num, Int64.min)
            return removed
        }
        guard events.count > 1 else { return removed }
        removed += events.count - 1
        let row = try EventRow(
            last, maxBytes: .max, serverClock: .zero, encoder: MakimaJSON.encoder())
        let run = EventChunk.Builder(row)
        try rewrite.bind(id, at: 1)
        try rewrite.bind(last.seq, at: 2)
        try rewrite.bind(run.text, at: 3)
        try rewrite.bind(blob: run.pieces, at: 4)
        try rewrite.step()
        rewrite.reset()
        return removed
    }
}
