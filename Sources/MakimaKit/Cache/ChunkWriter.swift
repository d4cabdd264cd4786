import Foundation

/// Writes one transaction's events of a task as chunks (`EventChunk`): each gapless run of
/// new seqs is one row, the rows a task's window left behind go, and what that means for the
/// task's lines is noted. The statements are prepared once per transaction.
///
/// Lines are not assembled here: a task's lines are written from its chunks at the next
/// catch-up (`TaskLines.catchUpDue`, with the search index's, every 30 s and before every
/// search), so a commit writes the chunks' pages and not also each task's end of
/// `task_lines`. Two cases make this call assemble: a chunk about to leave the window whose
/// events no line holds yet, and output older than what the lines hold (cached only now),
/// after which the task's lines are assembled again from 1, as before chunks.
struct ChunkWriter {
    let db: SQLiteDatabase
    let keep: Int
    private let top: SQLiteStatement
    private let overlapping: SQLiteStatement
    private let insert: SQLiteStatement
    private let oldest: SQLiteStatement
    private let prune: SQLiteStatement
    private let lastLineSeq: SQLiteStatement
    private let dropLines: SQLiteStatement

    init(_ db: SQLiteDatabase, keep: Int) throws {
        self.db = db
        self.keep = keep
        top = try db.prepare(
            "SELECT MAX(last_seq) FROM task_chunks WHERE num = ?1 AND last_seq BETWEEN 1 AND \(TaskEventSequencer.maxSeq)"
        )
        overlapping = try db.prepare(
            """
            SELECT first_seq, last_seq FROM task_chunks WHERE num = ?1 AND last_seq >= ?2 AND first_seq <= ?3
            ORDER BY last_seq
            """)
        insert = try db.prepare(
            "INSERT INTO task_chunks (num, first_seq, last_seq, text, pieces) VALUES (?1, ?2, ?3, ?4, ?5)")
        oldest = try db.prepare("SELECT MIN(last_seq) FROM task_chunks WHERE num = ?1")
        prune = try db.prepare("DELETE FROM task_chunks WHERE num = ?1 AND last_seq <= ?2")
        lastLineSeq = try db.prepare("SELECT last_seq FROM task_lines WHERE num = ?1 ORDER BY line_no DESC LIMIT 1")
        dropLines = try db.prepare("DELETE FROM task_lines WHERE num = ?1")
    }

    /// What writing one task's rows did.
    struct Outcome {
        /// Per row given, whether it is new to the cache (not a second copy of a seq in this
        /// call or of a cached one). New rows below the window count, though never written.
        var isNew: [Bool]
        /// The window's floor after these rows: chunks wholly at or below it are past it.
        var floor = 0
        /// The task's oldest chunk is past the window by more than the slack: trim now.
        var overSlack = false
    }

    /// Writes `rows` (one task's, any order) for task `num`, and says whether the task's
    /// chunks are past its window by more than the slack (`trim` drops them). `assembled`:
    /// the caller assembles this task's lines from these rows (events were left out below the
    /// window), so nothing is noted for the catch-up.
    func write(_ rows: [EventRow], num: Int64, assembled: Bool) throws -> Outcome {
        var outcome = Outcome(isNew: [Bool](repeating: false, count: rows.count))
        guard !rows.isEmpty else { return outcome }
        var order = Array(rows.indices)
        if zip(order, order.dropFirst()).contains(where: { rows[$0].seq >= rows[$1].seq }) {
            order.sort { (rows[$0].seq, $0) < (rows[$1].seq, $1) }
        }
        let before = try topSeq(num)
        let cached = try before.map { try ranges(num, from: rows[order[0]].seq, to: $0) } ?? []
        let floor = max(before ?? 0, rows[order.last!].seq) - keep
        var run: EventChunk.Builder?
        var lowestStored: Int?
        var previous: Int?
        var r = 0
        for i in order {
            let seq = rows[i].seq
            if seq == previous { continue }
            previous = seq
            while r < cached.count && cached[r].upperBound < seq { r += 1 }
            if r < cached.count && cached[r].contains(seq) { continue }
            outcome.isNew[i] = true
            // Past the window at once: counted as new, never written.
            guard seq > floor else { continue }
            if lowestStored == nil { lowestStored = seq }
            if run?.accepts(rows[i]) == true {
                run!.append(rows[i])
            } else {
                if let run { try store(run, num: num) }
                run = EventChunk.Builder(rows[i])
            }
        }
        if let run { try store(run, num: num) }
        if !assembled, let before, let low = lowestStored, low < before, low < (try linesReach(num)) {
            // Older output cached only now: the lines are assembled again, from 1.
            try dropLines.run(num)
        }
        outcome.floor = floor
        outcome.overSlack = try oldestSeq(num).map { floor >= 1 && $0 <= floor - Self.slack(keep: keep) } ?? false
        return outcome
    }

    /// Events a task's chunks may hold past its window before they are trimmed back to it:
    /// an eighth of the window (250 at 2,000), none for a window under 8. A batch that finds
    /// one of its tasks past the slack trims every task it wrote (`CacheStore.insert`).
    ///
    /// Why: a row deleted rewrites its page, and the tasks of a stream each had their oldest
    /// chunk deleted at every commit, a row from each of the pages an old batch filled, those
    /// pages balanced with their neighbours as they emptied: about 12 of the 17 pages a
    /// commit wrote to `task_chunks` once the tasks were past their window, as many as the
    /// new chunks' own (`scripts/wal_pages.py`). The chunks of one batch sit side by side (ids
    /// in the order written), so trimming every task at once, a few batches' chunks at a time,
    /// rewrites each of their pages once, as they are emptied together. Every read keeps to
    /// the window itself, so what is cached reads the same either way.
    static func slack(keep: Int) -> Int { keep / 8 }

    /// Drops the task's chunks wholly past the window (at or below `floor`); first assembles
    /// its lines if some of the events leaving are in no line yet (a task streaming more than
    /// the window between two catch-ups). Returns the lowest line written then.
    func trim(_ num: Int64, task: String, floor: Int, assembled: Bool) throws -> Int? {
        guard floor >= 1, let low = try oldestSeq(num), low <= floor else { return nil }
        var from: Int?
        if !assembled, try linesReach(num) < floor {
            from = try TaskLines.catchUp(task: task, num: num, keep: keep, in: db)
        }
        try prune.bind(num, at: 1)
        try prune.bind(floor, at: 2)
        try prune.step()
        prune.reset()
        return from
    }

    private func store(_ run: EventChunk.Builder, num: Int64) throws {
        try insert.bind(num, at: 1)
        try insert.bind(run.firstSeq, at: 2)
        try insert.bind(run.lastSeq, at: 3)
        try insert.bind(run.text, at: 4)
        try insert.bind(blob: run.pieces, at: 5)
        try insert.step()
        insert.reset()
    }

    private func oldestSeq(_ num: Int64) throws -> Int? {
        try oldest.bind(num, at: 1)
        defer { oldest.reset() }
        return try oldest.step() ? oldest.seq(0) : nil
    }

    private func topSeq(_ num: Int64) throws -> Int? {
        try top.bind(num, at: 1)
        defer { top.reset() }
        return try top.step() ? top.seq(0) : nil
    }

    /// The seq ranges of the task's chunks that reach into `from...to`, in order.
    private func ranges(_ num: Int64, from: Int, to: Int) throws -> [ClosedRange<Int>] {
        guard from <= to else { return [] }
        try overlapping.bind(num, at: 1)
        try overlapping.bind(from, at: 2)
        try overlapping.bind(to, at: 3)
        defer { overlapping.reset() }
        var ranges: [ClosedRange<Int>] = []
        while try overlapping.step() {
            if let a = overlapping.seq(0), let b = overlapping.seq(1), a <= b { ranges.append(a...b) }
        }
        return ranges
    }

    /// The last seq the task's lines hold (0 without lines).
    private func linesReach(_ num: Int64) throws -> Int {
        try lastLineSeq.bind(num, at: 1)
        defer { lastLineSeq.reset() }
        return try lastLineSeq.step() ? (lastLineSeq.seq(0) ?? 0) : 0
    }
}
