import Foundation

/// The cache's task output as lines (`task_lines`), assembled from the cached events (at the
/// search index's catch-up, `TaskLines+CatchUp.swift`; in the batch itself for a burst's
/// events left out below the window and for an event cut to fit), cut as
/// `OutputLineSplit` says (the task view's rule) across any event boundary: one row per line,
/// with its number in the task (from 1), its text (SGR removed), the first and last seq it
/// spans, and whether it is still open (no newline yet: the next text of its stream, which
/// only an open line keeps, continues it, and the row is updated in place). The search index is over these rows.
/// A row is keyed by the task's number in `task_activity` (as chunks are), not its id: the
/// id would be a third of each row, written again at every catch-up.
///
/// Bounded like the events: a task keeps its newest `CacheRetention.eventsPerTask` lines
/// (oldest go first, numbers are never reused), its lines go with the task, and one line keeps
/// at most `maxLineBytes` bytes of text: past it the text is cut between characters and
/// `cutMarker` ends it; the rest, up to its newline, is not kept.
///
/// Lines are assembled from the events in the cache's window. The events of a burst left out
/// below the window are not kept, but their lines are counted (`SkippedLines`), so the lines
/// after them keep their number in the task: a line they continue or leave open is marked
/// with `gapMarker` where its text is not known. Output
/// older than what a task's lines were assembled from (history fetched later) has the task's
/// lines assembled again from its cached events, numbered from 1.
enum TaskLines {
    /// The table under `name`, keyed by `key` (a column and its type) and the line's number.
    /// The migrations make it (`CacheSchema`): version 7 keyed by `task_id TEXT`, version 11
    /// by `num INTEGER`, each step with the shape of its own version.
    static func tableSQL(named name: String, key: (column: String, type: String)) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(name) (
            \(key.column) \(key.type) NOT NULL,
            line_no INTEGER NOT NULL,
            first_seq INTEGER NOT NULL,
            last_seq INTEGER NOT NULL,
            stream TEXT NOT NULL,
            open INTEGER NOT NULL,
            text TEXT NOT NULL,
            PRIMARY KEY (\(key.column), line_no)
        ) WITHOUT ROWID;

        """
    }

    /// The number of the task whose id is bound to `?1`: where a statement has the id, not
    /// the number, its lines are those of `num = taskNumber` (NULL, so none, for a task
    /// without events).
    static let taskNumber = "(SELECT num FROM task_activity WHERE task_id = ?1)"

    /// The most bytes of text one line keeps (what a search sees of an endless line).
    static let maxLineBytes = 16 << 10
    /// Stands where a line's text was in events left out of the cache.
    static let gapMarker = "…"
    /// Ends a line cut at `maxLineBytes`.
    static let cutMarker = " … [line cut at 16 KiB]"

    /// Assembles the lines of `rows` (just inserted; `isNew` says which were not cached
    /// before) onto each task's stored lines, writes them and keeps each task's newest `keep`.
    /// Tasks in `skips` had events left out before these rows: their lines are counted first.
    /// Returns, per task, the lowest line number written (the search index takes it from there).
    static func assemble(
        _ rows: ArraySlice<EventRow>, isNew: [Bool], skips: [String: SkippedLines], keep: Int, nums: [String: Int64],
        in db: SQLiteDatabase
    ) throws -> [String: Int] {
        guard !rows.isEmpty else { return [:] }
        var byTask: [String: [Int]] = [:]
        var order: [String] = []
        for i in rows.indices {
            let task = rows[i].taskID
            if byTask[task] == nil { order.append(task) }
            byTask[task, default: []].append(i)
        }
        let store = try Writer(db)
        var written: [String: Int] = [:]
        for task in order {
            guard let num = nums[task] else { continue }
            var assembler = TaskLineAssembler(last: try store.lastLine(of: num), keep: keep)
            if let skipped = skips[task] { assembler.skip(skipped) }
            var older = false
            // In seq order: a batch normally is, but nothing relies on it.
            var indices = byTask[task]!
            if zip(indices, indices.dropFirst()).contains(where: { rows[$0].seq > rows[$1].seq }) {
                indices.sort { rows[$0].seq < rows[$1].seq }
            }
            for i in indices {
                let row = rows[i]
                if row.seq <= assembler.lastSeq {
                    // Already assembled (a duplicate), or older output cached only now.
                    if isNew[i - rows.startIndex] && row.seq < assembler.lastSeq { older = true }
                    continue
                }
                assembler.add(seq: row.seq, row.linePart)
            }
            if older {
                written[task] = try rebuild(task, num: num, keep: keep, with: store)
            } else if let from = try store.write(assembler, num: num) {
                written[task] = from
            }
        }
        return written
    }

    /// Assembles the lines of every task that has events but no lines (a cache from before
    /// lines were kept). Bounded by what the cache holds; run off the UI thread (`ensure`).
    static func assembleMissing(keep: Int, in db: SQLiteDatabase) throws {
        let missing = try db.prepare(
            """
            SELECT a.num, a.task_id FROM task_activity a
            WHERE EXISTS (SELECT 1 FROM task_chunks c WHERE c.num = a.num)
                AND NOT EXISTS (SELECT 1 FROM task_lines l WHERE l.num = a.num)
            """)
        var tasks: [(num: Int64, id: String)] = []
        while try missing.step() { if let t = missing.text(1) { tasks.append((missing.int64(0), t)) } }
        let store = try Writer(db)
        for task in tasks { _ = try rebuild(task.id, num: task.num, keep: keep, with: store) }
    }

    /// Assembles a task's lines again from its cached events, numbered from 1.
    private static func rebuild(_ task: String, num: Int64, keep: Int, with store: Writer) throws -> Int {
        try store.removeLines(of: num)
        var assembler = TaskLineAssembler(last: nil, keep: keep)
        try store.forEachEvent(num: num, taskID: task, after: 0) { seq, part in assembler.add(seq: seq, part) }
        _ = try store.write(assembler, num: num)
        return 1
    }

    /// What one event does to the lines.
    enum Part: Sendable {
        /// Output text of a stream.
        case text(String, stream: String)
        /// Ends the open line (a status, a gate, a question).
        case end
        /// Nothing (an event of a kind this build does not know).
        case none

        init(_ payload: TaskEventPayload) {
            switch payload {
            case .output(let text, let stream): self = .text(text, stream: stream)
            case .status, .completionGate, .supervisorQuestion: self = .end
            case .unknown: self = .none
            }
        }
    }

    /// The statements that read and write one task's lines.
    struct Writer {
        let db: SQLiteDatabase
        let last: SQLiteStatement
        let upsert: SQLiteStatement
        let prune: SQLiteStatement
        let remove: SQLiteStatement
        let chunks: SQLiteStatement

        init(_ db: SQLiteDatabase) throws {
            self.db = db
            last = try db.prepare(
                """
                SELECT line_no, first_seq, last_seq, stream, open, text FROM task_lines
                WHERE num = ?1 ORDER BY line_no DESC LIMIT 1
                """)
            upsert = try db.prepare(
                """
                INSERT INTO task_lines (num, line_no, first_seq, last_seq, stream, open, text)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT (num, line_no) DO UPDATE
                SET last_seq = excluded.last_seq, stream = excluded.stream, open = excluded.open, text = excluded.text
                """)
            prune = try db.prepare("DELETE FROM task_lines WHERE num = ?1 AND line_no <= ?2")
            remove = try db.prepare("DELETE FROM task_lines WHERE num = ?1")
            chunks = try db.prepare(
                """
                SELECT first_seq, last_seq, text, pieces FROM task_chunks WHERE num = ?1 AND last_seq > ?2
                ORDER BY last_seq
                """)
        }

        func lastLine(of num: Int64) throws -> AssembledLine? {
            try last.bind(num, at: 1)
            defer { last.reset() }
            guard try last.step() else { return nil }
            return AssembledLine(
                number: last.int(0), firstSeq: last.int(1), lastSeq: last.int(2), stream: last.text(3) ?? "",
                open: last.int(4) != 0, text: last.text(5) ?? "")
        }

        /// Writes what `assembler` changed and drops the task's lines past its newest `keep`
        /// (lines already past it are not written at all); returns the lowest line number
        /// written.
        func write(_ assembler: TaskLineAssembler, num: Int64) throws -> Int? {
            var lines = assembler.changed
            if let newest = lines.last?.number { lines.removeAll { $0.number <= newest - assembler.keep } }
            for line in lines {
                try upsert.bind(num, at: 1)
                try upsert.bind(line.number, at: 2)
                try upsert.bind(line.firstSeq, at: 3)
                try upsert.bind(line.lastSeq, at: 4)
                // Only the open line's stream is ever read (the next text of it continues the
                // line): a closed line keeps none, 9 bytes a line less to write.
                try upsert.bind(line.open ? line.stream : "", at: 5)
                try upsert.bind(line.open ? 1 : 0, at: 6)
                try upsert.bind(line.text, at: 7)
                try upsert.step()
                upsert.reset()
            }
            guard let first = lines.first, let newest = lines.last else { return nil }
            if newest.number - assembler.keep >= 1 {
                try prune.bind(num, at: 1)
                try prune.bind(newest.number - assembler.keep, at: 2)
                try prune.step()
                prune.reset()
            }
            return first.number
        }

        func removeLines(of num: Int64) throws {
            try remove.bind(num, at: 1)
            try remove.step()
            remove.reset()
        }

        /// The task's cached events past `after`, oldest first, as what each does to the lines
        /// (a damaged chunk is skipped).
        func forEachEvent(num: Int64, taskID: String, after: Int, _ body: (Int, Part) -> Void) throws {
            try chunks.bind(num, at: 1)
            try chunks.bind(after, at: 2)
            defer { chunks.reset() }
            var last = after
            while try chunks.step() {
                for event in CacheStore.chunkEvents(chunks, taskID: taskID) ?? [] where event.seq > last {
                    body(event.seq, Part(event.payload))
                    last = event.seq
                }
            }
        }
    }
}

/// The lines of events left out of the cache, counted as `TaskLineAssembler` would split them
/// (their text is not kept): how many lines they begin, whether the first of them could
/// continue the line open before them, and whether the last is still open at their end.
struct SkippedLines: Sendable, Equatable {
    /// Lines begun (the first may continue the cache's open line: `firstStream`).
    private(set) var lines = 0
    /// An end (a status, a gate, a question) came before any text.
    private(set) var leadingEnd = false
    /// The stream of the first text, when no end came before it.
    private(set) var firstStream: String?
    /// The last line begun has no newline yet.
    private(set) var trailingOpen = false
    private(set) var lastStream = ""
    private(set) var lastSeq = 0

    mutating func add(seq: Int, _ part: TaskLines.Part) {
        lastSeq = max(lastSeq, seq)
        switch part {
        case .text(let text, let stream):
            if lines == 0 && !leadingEnd && firstStream == nil { firstStream = stream }
            // Counted, not split: the first piece may continue the open line, every later one
            // begins a line (the one before it ended), and the last stays open without a newline.
            let shape = OutputLineSplit.shape(of: text)
            guard shape.pieces > 0 else { break }
            let continuesOpen = trailingOpen && OutputLineSplit.continues(openStream: lastStream, with: stream)
            lines += shape.pieces - (continuesOpen ? 1 : 0)
            trailingOpen = shape.endsOpen
            lastStream = stream
        case .end:
            if lines == 0 && firstStream == nil { leadingEnd = true }
            trailingOpen = false
        case .none:
            break
        }
    }
}
