import Foundation

/// Task events: at most one per (task, seq); per task, the events of the newest
/// `eventsKeptPerTask` seq numbers are kept; finished tasks age out and the file keeps under
/// a total size (`CacheRetention`, applied by `prune`).
extension CacheStore {
    /// Stores events, dropping any whose (task_id, seq) is already cached, and prunes every task
    /// it touched to the seqs in (max - eventsKeptPerTask, max]. Returns how many were new
    /// (events older than that window count, though never written).
    ///
    /// Events of a task at or below its highest seq in this call minus `eventsKeptPerTask`
    /// would be pruned by this very call, so they are not encoded or inserted at all: in a
    /// burst the writer takes several thousand events of one task at once, and most of them
    /// are already outside the window. They are still counted (against what is cached in
    /// their seq range) and their statuses still mark a task finished.
    ///
    /// Up to `maxEventsPerTransaction` events are written per transaction. If a later
    /// transaction fails, the earlier ones stay committed; appending is idempotent, so the
    /// caller may simply retry the whole array.
    ///
    /// Each new event counts in the activity history at the minute it arrived, for a live
    /// event, else at its `ts` read on our clock through `serverClock`.
    @discardableResult
    public func appendEvents(_ events: [TaskEvent], serverClock: ClockOffset = .zero) throws(CacheError) -> Int {
        guard !events.isEmpty else {
            try pruneIfDue(now: Date())
            return 0
        }
        let keep = eventsKeptPerTask
        let (newest, finished) = Self.newestSeqs(in: events)
        let (rows, skipped) = try Self.rows(
            of: events, newest: newest, keep: keep, maxEventBytes: retention.maxEventBytes, serverClock: serverClock)
        let inserted = try write(
            rows, leftOut: skipped, newest: newest, finished: finished, keep: keep, statusesOf: events)
        // Indexed before the cap is applied: the index's pages count in the size it holds.
        try indexIfDue(now: Date())
        try pruneIfDue(now: Date())
        return inserted
    }

    /// Per task, its highest seq here, and whether its last status here is final. Events come
    /// in runs of one task (a burst is one long run): the dictionary is touched once per run,
    /// not once per event.
    private static func newestSeqs(in events: [TaskEvent]) -> (newest: [String: Int], finished: [String: Bool]) {
        var newest: [String: Int] = [:]
        var finished: [String: Bool] = [:]
        var run = (task: events[0].taskID, top: Int.min)
        // By index: the events are read in place, not copied one by one.
        for i in events.indices {
            if events[i].taskID != run.task {
                newest[run.task] = max(newest[run.task] ?? Int.min, run.top)
                run = (events[i].taskID, newest[events[i].taskID] ?? Int.min)
            }
            run.top = max(run.top, events[i].seq)
            if case .status(let s, _, _) = events[i].payload { finished[events[i].taskID] = s.isFinal }
        }
        newest[run.task] = max(newest[run.task] ?? Int.min, run.top)
        return (newest, finished)
    }

    /// The rows to write, encoded: the events inside their task's window of `keep` below its
    /// newest seq, each cut to `maxEventBytes`; those below it are only noted, per task, as
    /// left out.
    private static func rows(
        of events: [TaskEvent], newest: [String: Int], keep: Int, maxEventBytes: Int, serverClock: ClockOffset
    ) throws(CacheError) -> (rows: [EventRow], leftOut: [String: LeftOut]) {
        let encoder = MakimaJSON.encoder()
        var rows: [EventRow] = []
        rows.reserveCapacity(min(events.count, newest.count * keep))
        var skipped: [String: LeftOut] = [:]
        var cut = (task: events[0].taskID, below: newest[events[0].taskID]! - keep, leftOut: LeftOut())
        for i in events.indices {
            if events[i].taskID != cut.task {
                if !cut.leftOut.isEmpty { skipped[cut.task] = cut.leftOut }
                let task = events[i].taskID
                cut = (task, newest[task]! - keep, skipped.removeValue(forKey: task) ?? LeftOut())
            }
            if events[i].seq <= cut.below {
                cut.leftOut.add(events[i].seq)
                cut.leftOut.lines.add(seq: events[i].seq, TaskLines.Part(events[i].payload))
                continue
            }
            let event = events[i]
            var json: String
            if let wire = event.outputWireJSON { json = wire } else { json = try encodeJSON(event, with: encoder) }
            if json.utf8.count > maxEventBytes { json = try cutToFit(event, maxBytes: maxEventBytes, encoder) }
            rows.append(EventRow(event, json: json, serverClock: serverClock))
        }
        if !cut.leftOut.isEmpty { skipped[cut.task] = cut.leftOut }
        return (rows, skipped)
    }

    /// Writes `rows` in transactions of up to `maxEventsPerTransaction` events or a quarter of
    /// the cap in bytes, applying the cap between them (one large batch never takes the file
    /// far past it); returns how many events are new to the cache (rows inserted, and left-out
    /// events it did not hold).
    private func write(
        _ rows: [EventRow], leftOut skipped: [String: LeftOut], newest: [String: Int], finished: [String: Bool],
        keep: Int, statusesOf events: [TaskEvent]
    ) throws(CacheError) -> Int {
        let clock = Date()
        let now = clock.timeIntervalSince1970
        var inserted = 0
        var start = 0
        let chunkBytes = max(1, retention.maxBytes / 4)
        repeat {
            var end = start
            var bytes = 0
            while end < rows.count && end - start < Self.maxEventsPerTransaction && (end == start || bytes < chunkBytes)
            {
                bytes += rows[end].json.utf8.count
                end += 1
            }
            let chunk = rows[start..<end]
            // The first transaction counts the left-out events (before its pruning can remove
            // cached ones among them); every one records the tasks' activity, and the last one
            // whether their last status is final (it may be among the left-out events).
            let first = start == 0
            let last = start + chunk.count >= rows.count
            inserted += try withDatabase { db in
                try db.transaction {
                    let absent = try first ? Self.countAbsent(skipped, in: db) : 0
                    // The task table's rows take the statuses in the same transaction (a
                    // status left out of the window above still changes its task's row).
                    if first {
                        try Self.recordStatuses(
                            of: events, now: clock, stamp: try nextTaskStamp(db), maxRows: maxTaskRows, in: db
                        ) { rows in taskRowCount.withLock { $0 = rows } }
                    }
                    // Events left out below the window end each task's open line (first chunk).
                    let n = try Self.insert(
                        chunk, keep: keep, leftOutNew: absent, skips: first ? skipped.mapValues(\.lines) : [:],
                        now: now,
                        into: db)
                    try Self.recordActivity(of: newest.keys, finished: last ? finished : [:], now: now, in: db)
                    // At most one new row a task: the count the bound is checked against.
                    activityRows.withLock { rows in rows = rows.map { $0 + newest.count } }
                    return absent + n
                }
            }
            start += chunk.count
            if start < rows.count { try pruneIfDue(now: Date()) }
        } while start < rows.count
        return inserted
    }

    /// Per task, the distinct seqs of one `appendEvents` left out for being below its window:
    /// a range while they come ascending without a gap (the engine's order), else a set.
    struct LeftOut {
        private(set) var range: ClosedRange<Int>?
        private(set) var scattered: Set<Int>?
        /// The lines their output held, counted (their text is not kept).
        var lines = SkippedLines()

        var isEmpty: Bool { range == nil && scattered == nil }

        mutating func add(_ seq: Int) {
            if scattered != nil {
                scattered!.insert(seq)
            } else if let r = range {
                if seq == r.upperBound + 1 {
                    range = r.lowerBound...seq
                } else if !r.contains(seq) {
                    scattered = Set(r)
                    scattered!.insert(seq)
                    range = nil
                }
            } else {
                range = seq...seq
            }
        }
    }

    /// How many of these (task, seq) pairs are not cached: one range count per task whose seqs
    /// are contiguous (the usual case), else one lookup per seq.
    private static func countAbsent(_ skipped: [String: LeftOut], in db: SQLiteDatabase) throws -> Int {
        guard !skipped.isEmpty else { return 0 }
        let range = try db.prepare("SELECT COUNT(*) FROM task_events WHERE task_id = ?1 AND seq BETWEEN ?2 AND ?3")
        func cached(_ task: String, _ low: Int, _ high: Int) throws -> Int {
            try range.bind(task, at: 1)
            try range.bind(low, at: 2)
            try range.bind(high, at: 3)
            defer { range.reset() }
            return try range.step() ? range.int(0) : 0
        }
        var absent = 0
        for (task, leftOut) in skipped {
            if let r = leftOut.range {
                absent += r.count - (try cached(task, r.lowerBound, r.upperBound))
            } else if let seqs = leftOut.scattered {
                for seq in seqs { absent += 1 - (try cached(task, seq, seq)) }
            }
        }
        return absent
    }

    /// What one `prune` removed.
    public struct PruneResult: Sendable, Equatable {
        /// Finished tasks quiet past the retention's age, removed whole.
        public var finishedTasksRemoved = 0
        /// Tasks cut down to their newest event because the file was over its cap.
        public var tasksTrimmedForSize = 0
        /// Tasks whose every cached event was removed for size (after trimming was not enough).
        public var tasksEvicted = 0
        /// Events removed by the age and the size steps together.
        public var eventsRemoved = 0
        /// Rows removed by the tables' own bounds (`CacheBounds`).
        public var rowsOverBounds = 0
        /// Free pages given back to the file system (`auto_vacuum = INCREMENTAL`).
        public var pagesGivenBack = 0
        /// The file was rewritten once to switch on giving pages back (a file made before).
        public var vacuumed = false
    }

    /// Applies the retention: drops the events of finished tasks quiet past the age, applies
    /// every table's own bound (`CacheBounds`, with `bounds`: the writer's prunes, not the one
    /// at opening, which may be on the UI thread), then, while the database is over
    /// `maxBytes`, trims the least recently active tasks (finished first) to their newest
    /// event, then removes whole tasks in that order, until it is under 80% of the cap (so
    /// appends do not prune at every batch). The pages freed go back to the file system.
    @discardableResult
    public func prune(now: Date = Date(), bounds: Bool = true) throws(CacheError) -> PruneResult {
        lastAgePrune.withLock { $0 = now }
        let policy = retention
        let switchMode =
            bounds
            && vacuumModeChecked.withLock { checked in
                defer { checked = true }
                return !checked
            }
        return try withDatabase { db in
            // The output's cap: the task table has a share of its own on top of it.
            let cap = policy.maxBytes + (try taskShareBytes(db))
            var result = PruneResult()
            let cutoff = now.timeIntervalSince1970 - policy.finishedTaskAge
            try db.transaction {
                let old = try db.prepare("SELECT task_id FROM task_activity WHERE finished = 1 AND last_at < ?1")
                try old.bind(cutoff, at: 1)
                var tasks: [String] = []
                while try old.step() { if let t = old.text(0) { tasks.append(t) } }
                let removal = try TaskRemoval(db)
                for task in tasks { result.eventsRemoved += try removal.remove(task) }
                result.finishedTasksRemoved = tasks.count
            }
            if bounds {
                let limits = CacheBounds.Limits(tasks: maxTaskRows, now: now)
                result.rowsOverBounds = try db.transaction { try CacheBounds.apply(db, limits) }
                _ = try countTaskRows(db)
                let kept = Int(try db.scalarInt("SELECT count(*) FROM task_activity") ?? 0)
                activityRows.withLock { $0 = kept }
            }
            if try Self.usedBytes(db) > cap {
                try Self.trimForSize(db, target: cap - policy.maxBytes / 5, into: &result)
            }
            // A switch that fails (no room for the copy, a lock) is tried again next session.
            if switchMode { result.vacuumed = (try? Self.switchToIncrementalVacuum(db)) ?? false }
            result.pagesGivenBack = try Self.giveBackFreePages(db)
            return result
        }
    }

    /// The cap's trimming, in activity order (least recently active first, finished before
    /// running; tasks cached before activity was recorded count as the oldest): each task down
    /// to its newest event until the file is under `target`, then, if that is not enough (many
    /// tasks, each with one large event), whole tasks in the same order.
    private static func trimForSize(_ db: SQLiteDatabase, target: Int, into result: inout PruneResult) throws {
        let order = try db.prepare(
            """
            SELECT e.task_id FROM (SELECT DISTINCT task_id FROM task_events) e
            LEFT JOIN task_activity a ON a.task_id = e.task_id
            ORDER BY COALESCE(a.finished, 1) DESC, COALESCE(a.last_at, 0) ASC
            """)
        var tasks: [String] = []
        while try order.step() { if let t = order.text(0) { tasks.append(t) } }
        let trim = try db.prepare(
            "DELETE FROM task_events WHERE task_id = ?1 AND seq < (SELECT MAX(seq) FROM task_events WHERE task_id = ?1)"
        )
        // A trimmed task's lines go whole: a resync needs its newest event, not its text.
        let trimLines = try db.prepare("DELETE FROM task_lines WHERE task_id = ?1")
        var meter = try CapMeter(db, target: target)
        for task in tasks {
            if try !meter.isOver() { break }
            try meter.linesLeaving(task)
            try trim.run(task)
            let n = db.changes
            try trimLines.run(task)
            result.eventsRemoved += n
            if n > 0 { result.tasksTrimmedForSize += 1 }
        }
        // Still over with one event a task (many tasks, each with one large event):
        // whole tasks go, in the same order.
        let removal = try TaskRemoval(db)
        if try meter.settle() {
            for task in tasks {
                if try !meter.isOver() { break }
                try meter.linesLeaving(task)
                result.eventsRemoved += try removal.remove(task)
                result.tasksEvicted += 1
            }
            try meter.settle()
        }
    }

    /// Prunes when the file's pages in use passed its cap, the last pruning by age is an hour
    /// old, or task_activity may have passed its bound (`activityRows`, counted up by every
    /// batch, nil until the first prune of the session); gives free pages back when the file
    /// alone is over the cap.
    private func pruneIfDue(now: Date) throws(CacheError) {
        let ageDue = lastAgePrune.withLock { last in last.map { now.timeIntervalSince($0) >= 3_600 } ?? true }
        let tasksDue = activityRows.withLock { ($0 ?? .max) > maxTaskRows }
        let (over, fileOver) = try withDatabase { db in
            let cap = retention.maxBytes + (try taskShareBytes(db))
            return (try Self.usedBytes(db) > cap, try Self.fileBytes(db) > cap)
        }
        if ageDue || over || tasksDue {
            try prune(now: now)
        } else if fileOver {
            _ = try withDatabase { db in try Self.giveBackFreePages(db) }
        }
    }

    /// Pages freed by pruning go back to the file system (`auto_vacuum = INCREMENTAL`: the
    /// cap is a promise about the file on disk, not the pages in use), and a checkpoint moves
    /// the shrink from the -wal into the file now rather than at the next automatic one (it
    /// does what readers allow, never waits for them). Returns the pages given back.
    static func giveBackFreePages(_ db: SQLiteDatabase) throws -> Int {
        let free = Int(try db.scalarInt("PRAGMA freelist_count") ?? 0)
        guard free > 0, try db.scalarInt("PRAGMA auto_vacuum") == 2 else { return 0 }
        try db.exec("PRAGMA incremental_vacuum")
        try db.exec("PRAGMA wal_checkpoint(PASSIVE)")
        return free - Int(try db.scalarInt("PRAGMA freelist_count") ?? 0)
    }

    /// A file made before pages were given back (`auto_vacuum` NONE) switches once: SQLite
    /// changes the mode of an existing file only with a VACUUM, which rewrites it whole. Done
    /// by the writer's first prune of a session (never on the thread that opened the cache),
    /// on a file already held to its cap; a new file is made incremental at once
    /// (`CacheOpener`). Returns whether it ran.
    static func switchToIncrementalVacuum(_ db: SQLiteDatabase) throws -> Bool {
        guard try db.scalarInt("PRAGMA auto_vacuum") == 0 else { return false }
        try db.exec("PRAGMA auto_vacuum = INCREMENTAL")
        try db.exec("VACUUM")
        return true
    }

    /// `event` stored within `maxBytes`: its text cut, with a marker saying how much is not
    /// cached; the cut is halved until the JSON fits (escapes can make JSON longer than text).
    static func cutToFit(_ event: TaskEvent, maxBytes: Int, _ encoder: JSONEncoder) throws(CacheError) -> String {
        var budget = maxBytes / 2
        while true {
            let cut = event.cutForCache(maxTextBytes: budget)
            let json: String
            if let wire = cut.outputWireJSON { json = wire } else { json = try Self.encodeJSON(cut, with: encoder) }
            if json.utf8.count <= maxBytes || budget == 0 { return json }
            budget /= 2
        }
    }

    /// Bytes of the database file: its pages, in use or free.
    static func fileBytes(_ db: SQLiteDatabase) throws -> Int {
        Int(try db.scalarInt("PRAGMA page_count") ?? 0) * Int(try db.scalarInt("PRAGMA page_size") ?? 4096)
    }

    /// Bytes of the database's pages in use (its size less the free pages).
    static func usedBytes(_ db: SQLiteDatabase) throws -> Int {
        let pageSize = Int(try db.scalarInt("PRAGMA page_size") ?? 4096)
        let pages = Int(try db.scalarInt("PRAGMA page_count") ?? 0)
        let free = Int(try db.scalarInt("PRAGMA freelist_count") ?? 0)
        return (pages - free) * pageSize
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
        return Self.decodeEvents(rows)
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
        return Self.decodeEvents(rows)
    }

    /// The highest cached seq of every task with events: the `last_seen` of a WebSocket resync.
    /// Pruning never removes a task's newest event, so this survives pruning.
    public func lastSeenSeqs() throws(CacheError) -> [String: Int] {
        try withDatabase { db in
            try db.prepare("SELECT task_id, MAX(seq) FROM task_events GROUP BY task_id").keyedByText { $0.seq(1) }
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
                if let task = select.text(0), let seq = select.seq(1) { seqs[task] = seq }
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

    /// Inserts the rows, assembles their lines (`TaskLines`) and marks them for the search
    /// index, adds to the activity counts (with
    /// `leftOutNew` new events left out below the window, counted as output now), then prunes.
    private static func insert(
        _ rows: ArraySlice<EventRow>, keep: Int, leftOutNew: Int, skips: [String: SkippedLines], now: Double,
        into db: SQLiteDatabase
    ) throws -> Int {
        let insert = try db.prepare(
            "INSERT OR IGNORE INTO task_events (task_id, seq, event_id, type, json) VALUES (?1, ?2, ?3, ?4, ?5)")
        var inserted = 0
        var touched: Set<String> = []
        var isNew: [Bool] = []
        isNew.reserveCapacity(rows.count)
        let minute = ActivityMinute.minute(of: Date(timeIntervalSince1970: now))
        var activity: [Int: ActivityMinute] = [:]
        if leftOutNew > 0 { activity[minute] = ActivityMinute(minute: minute, output: leftOutNew) }
        for row in rows {
            try insert.bind(row.taskID, at: 1)
            try insert.bind(row.seq, at: 2)
            try insert.bind(row.eventID, at: 3)
            try insert.bind(row.type, at: 4)
            try insert.bind(row.json, at: 5)
            try insert.step()
            let new = db.changes == 1
            insert.reset()
            touched.insert(row.taskID)
            isNew.append(new)
            guard new else { continue }
            inserted += 1
            if row.activity != .none {
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
        try addActivity(activity, now: minute, in: db)
        // Per task, the lowest line written: the search index takes it from there at its
        // next catch-up (`OutputSearchIndex.catchUp`).
        let written = try TaskLines.assemble(rows, isNew: isNew, skips: skips, keep: keep, in: db)
        try OutputSearchIndex.markUnindexed(written, in: db)
        return inserted
    }

    /// When each task last had events, and whether its last status (if any) is final.
    private static func recordActivity(
        of tasks: some Sequence<String>, finished: [String: Bool], now: Double, in db: SQLiteDatabase
    )
        throws
    {
        let activity = try db.prepare(
            """
            INSERT INTO task_activity (task_id, last_at, finished) VALUES (?1, ?2, COALESCE(?3, 0))
            ON CONFLICT (task_id) DO UPDATE SET last_at = excluded.last_at, finished = COALESCE(?3, finished)
            """)
        for task in tasks {
            try activity.bind(task, at: 1)
            try activity.bind(now, at: 2)
            try activity.bind(finished[task].map { $0 ? 1 : 0 }, at: 3)
            try activity.step()
            activity.reset()
        }
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

    private static func jsonColumn(_ select: SQLiteStatement) throws -> [String] {
        var rows: [String] = []
        while try select.step() { rows.append(select.text(0) ?? "") }
        return rows
    }
}

/// Removes a task from the cache's event tables: its events, its lines and its activity row.
struct TaskRemoval {
    let db: SQLiteDatabase
    let events: SQLiteStatement
    let lines: SQLiteStatement
    let activity: SQLiteStatement

    init(_ db: SQLiteDatabase) throws {
        self.db = db
        events = try db.prepare("DELETE FROM task_events WHERE task_id = ?1")
        lines = try db.prepare("DELETE FROM task_lines WHERE task_id = ?1")
        activity = try db.prepare("DELETE FROM task_activity WHERE task_id = ?1")
    }

    /// How many events went.
    func remove(_ task: String) throws -> Int {
        try events.run(task)
        let removed = db.changes
        try lines.run(task)
        try activity.run(task)
        return removed
    }
}

/// An event ready to store: its key columns and its JSON.
struct EventRow: Sendable {
    let taskID: String
    let seq: Int
    let eventID: Int64
    let type: String
    let json: String
    /// When it happened on our clock: its arrival if it came live, else its `ts` corrected.
    let countedAt: Date?
    let activity: ActivityKind
    /// What the event does to the task's lines (`TaskLines`).
    let linePart: TaskLines.Part

    /// What an event adds to the per-minute activity counts.
    enum ActivityKind { case none, output, completed, failed }

    init(_ event: TaskEvent, json: String, serverClock: ClockOffset) {
        taskID = event.taskID
        seq = event.seq
        eventID = event.eventID
        type = event.type.rawValue
        self.json = json
        countedAt = event.arrivedAt ?? event.ts.map(serverClock.local)
        linePart = TaskLines.Part(event.payload)
        switch event.payload {
        case .output: activity = .output
        case .status(let s, _, _) where s == .completed: activity = .completed
        case .status(let s, _, _) where s == .failed: activity = .failed
        default: activity = .none
        }
    }
}
