import Foundation

/// Task events: at most one per (task, seq); per task, the events of the newest
/// `eventsKeptPerTask` seq numbers are kept, in chunks (`EventChunk`: a row holds a gapless run
/// of one task's events, a batch's pieces of a task together); finished tasks age out and
/// the file keeps under a total size (`CacheRetention`, applied by `prune`).
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
            rows.append(
                try EventRow(events[i], maxBytes: maxEventBytes, serverClock: serverClock, encoder: encoder))
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
        let byRecency = Self.tasksByLastEvent(events)
        repeat {
            var end = start
            var bytes = 0
            while end < rows.count && end - start < Self.maxEventsPerTransaction && (end == start || bytes < chunkBytes)
            {
                bytes += rows[end].bytes
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
                        ) { rows in space.taskRowsCounted(rows) }
                    }
                    // Each task's number (its chunks' key) first. Events left out below the
                    // window end each task's open line (first transaction): those tasks'
                    // lines are assembled now, as are those of tasks with an event cut to
                    // fit, every other's at the next catch-up (`due`).
                    let skips = first ? skipped.mapValues(\.lines) : [:]
                    let eager = Set(chunk.lazy.filter(\.wasCut).map(\.taskID)).union(skips.keys)
                    let nums = try Self.recordActivity(
                        of: byRecency, finished: last ? finished : [:],
                        due: Set(chunk.map(\.taskID)).subtracting(eager), now: now, in: db)
                    let n = try Self.insert(
                        chunk, keep: keep, leftOutNew: absent, skips: skips, assembling: eager, nums: nums,
                        now: now, into: db)
                    // At most one new row a task: the count the bound is checked against.
                    space.batchWritten(tasks: newest.count)
                    return absent + n
                }
            }
            start += chunk.count
            if start < rows.count { try pruneIfDue(now: Date()) }
        } while start < rows.count
        return inserted
    }

    /// The batch's tasks, the one whose last event came first first: the order of their
    /// activity (a task later in the batch is the more recently active one).
    static func tasksByLastEvent(_ events: [TaskEvent]) -> [String] {
        var last: [String: Int] = [:]
        for (i, e) in events.enumerated() { last[e.taskID] = i }
        return last.sorted { $0.value < $1.value }.map(\.key)
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
        let range = try db.prepare(
            """
            SELECT COALESCE(SUM(MAX(0, MIN(c.last_seq, ?3) - MAX(c.first_seq, ?2) + 1)), 0)
            FROM task_chunks c JOIN task_activity a ON a.num = c.num
            WHERE a.task_id = ?1 AND c.last_seq >= ?2 AND c.first_seq <= ?3
            """)
        func cached(_ task: String, _ low: Int, _ high: Int) throws -> Int {
            try range.bind(task, at: 1)
            try range.bind(low, at: 2)
            try range.bind(high, at: 3)
            defer { range.reset() }
            return try range.step() ? range.count(0) : 0
        }
        var absent = 0
        for (task, leftOut) in skipped {
            if let r = leftOut.range {
                absent += max(0, r.count - (try cached(task, r.lowerBound, r.upperBound)))
            } else if let seqs = leftOut.scattered {
                for seq in seqs { absent += max(0, 1 - (try cached(task, seq, seq))) }
            }
        }
        return absent
    }
}
