import Foundation

/// Lines assembled after the fact: a batch writes its events as chunks and marks its tasks
/// (`task_activity.lines_due`); the catch-up assembles each marked task's lines from its
/// chunks past its last line, with the search index's catch-up (every 30 s after an append,
/// and before every search or count of lines), in the same transaction.
///
/// Why later: each task's lines end somewhere in `task_lines` (keyed by task and line), so
/// a batch that assembled them wrote one page a task there, the open line again each time,
/// about a third of the bytes a stream wrote once its events were chunks. Assembled every
/// 30 s, a task's lines of that span are written together, page after page. What a catch-up
/// assembles is what the batches would have: the same events, in seq order, continuing the
/// stored open line. A chunk never leaves the window before its events are in lines
/// (`ChunkWriter.pruneWindow` assembles first).
extension TaskLines {
    /// Assembles the lines of every task marked due, clears the marks, and returns per task
    /// the lowest line written (for `OutputSearchIndex.markUnindexed`).
    static func catchUpDue(keep: Int, in db: SQLiteDatabase) throws -> [String: Int] {
        let due = try db.prepare("SELECT num, task_id FROM task_activity WHERE lines_due IS NOT NULL")
        var tasks: [(num: Int64, id: String)] = []
        while try due.step() { if let t = due.text(1) { tasks.append((due.int64(0), t)) } }
        guard !tasks.isEmpty else { return [:] }
        let store = try Writer(db)
        var written: [String: Int] = [:]
        for task in tasks {
            if let from = try catchUp(task.id, num: task.num, keep: keep, with: store) { written[task.id] = from }
        }
        try db.exec("UPDATE task_activity SET lines_due = NULL WHERE lines_due IS NOT NULL")
        return written
    }

    /// Assembles one task's lines from its chunks past its last line; returns the lowest line
    /// written. The task stays marked: the next `catchUpDue` finds nothing more to do.
    static func catchUp(task: String, num: Int64, keep: Int, in db: SQLiteDatabase) throws -> Int? {
        try catchUp(task, num: num, keep: keep, with: try Writer(db))
    }

    private static func catchUp(_ task: String, num: Int64, keep: Int, with store: Writer) throws -> Int? {
        var assembler = TaskLineAssembler(last: try store.lastLine(of: num), keep: keep)
        try store.forEachEvent(num: num, taskID: task, after: assembler.lastSeq) { seq, part in
            assembler.add(seq: seq, part)
        }
        return try store.write(assembler, num: num)
    }
}

extension CacheStore {
    /// How many lines are cached for a task (its lines assembled first, as a search does).
    public func lineCount(taskID: String) throws(CacheError) -> Int {
        let keep = eventsKeptPerTask
        return try withDatabase { db in
            try db.transaction {
                try OutputSearchIndex.markUnindexed(try TaskLines.catchUpDue(keep: keep, in: db), in: db)
            }
            let select = try db.prepare(
                "SELECT COUNT(*) FROM task_lines WHERE num = \(TaskLines.taskNumber)")
            try select.bind(taskID, at: 1)
            return try select.step() ? select.int(0) : 0
        }
    }
}
