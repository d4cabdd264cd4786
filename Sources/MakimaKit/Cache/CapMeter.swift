/// Measures the file against the cap while `CacheSpaceManager.free` takes output away, counting the
/// search index as it will be on disk. FTS5 does not shrink when a row leaves it: the delete
/// is written as one more entry, and the row's terms stay in the index's pages until its
/// segments are merged. Measured bare, a file whose lines were just trimmed looks as full as
/// before (the index was three times the events it indexed in a week's soak under a small
/// cap), and pruning went on to remove whole tasks still within retention. So the meter
/// counts what the lines removed will free once merged, and merges the index (FTS5's
/// `optimize`) when that is what stands between the file and its target, then measures again.
struct CapMeter {
    let db: SQLiteDatabase
    let target: Int
    /// About what the index frees, once merged, for the lines removed since the last merge.
    private var pending = 0
    private let lineBytes: SQLiteStatement

    /// Each byte of a line is in the index twice: its copy of the text and its trigrams'
    /// entries (`detail = none`: a row's number under each of its trigrams).
    static let indexBytesPerLineByte = 2

    init(_ db: SQLiteDatabase, target: Int) throws {
        self.db = db
        self.target = target
        lineBytes = try db.prepare(
            """
            SELECT COALESCE(SUM(length(CAST(text AS BLOB))), 0) FROM task_lines
            WHERE num = \(TaskLines.taskNumber)
            """)
    }

    /// Whether the file is still over its target, the index's pending deletes counted as done;
    /// merges the index when they are what would bring it under.
    mutating func isOver() throws -> Bool {
        let used = try CacheSpaceManager.usedBytes(db)
        guard used > target else { return false }
        guard pending > 0, used - pending <= target else { return true }
        return try settle()
    }

    /// Merges the index when lines left it since the last merge (before the last resort, or
    /// when nothing more can be trimmed); whether the file is still over its target.
    @discardableResult
    mutating func settle() throws -> Bool {
        if pending > 0 {
            try OutputSearchIndex.applyDeletes(db)
            pending = 0
        }
        return try CacheSpaceManager.usedBytes(db) > target
    }

    /// Notes a task's lines as about to be removed (call before removing them).
    mutating func linesLeaving(_ task: String) throws {
        try lineBytes.bind(task, at: 1)
        defer { lineBytes.reset() }
        if try lineBytes.step() { pending += lineBytes.int(0) * Self.indexBytesPerLineByte }
    }
}
