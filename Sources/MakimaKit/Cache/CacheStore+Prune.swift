import Foundation

/// The retention applied (`CacheRetention`): finished tasks by age, every table's own bound
/// (`CacheBounds`), the cap on the file's bytes, and the pages freed given back.
extension CacheStore {
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
    /// running): each task down to its newest event until the file is under `target`, then, if
    /// that is not enough (many tasks, each with one large event), whole tasks in the same
    /// order.
    private static func trimForSize(_ db: SQLiteDatabase, target: Int, into result: inout PruneResult) throws {
        let order = try db.prepare(
            """
            SELECT a.num, a.task_id FROM task_activity a
            WHERE EXISTS (SELECT 1 FROM task_chunks c WHERE c.num = a.num)
            ORDER BY a.finished DESC, a.last_at ASC
            """)
        var tasks: [(num: Int64, id: String)] = []
        while try order.step() { if let t = order.text(1) { tasks.append((order.int64(0), t)) } }
        let trim = try ChunkTrim(db)
        // A trimmed task's lines go whole: a resync needs its newest event, not its text.
        let trimLines = try db.prepare("DELETE FROM task_lines WHERE task_id = ?1")
        var meter = try CapMeter(db, target: target)
        for task in tasks {
            if try !meter.isOver() { break }
            try meter.linesLeaving(task.id)
            let n = try trim.toNewest(task.num, taskID: task.id)
            try trimLines.run(task.id)
            result.eventsRemoved += n
            if n > 0 { result.tasksTrimmedForSize += 1 }
        }
        // Still over with one event a task (many tasks, each with one large event):
        // whole tasks go, in the same order.
        let removal = try TaskRemoval(db)
        if try meter.settle() {
            for task in tasks {
                if try !meter.isOver() { break }
                try meter.linesLeaving(task.id)
                result.eventsRemoved += try removal.remove(task.id)
                result.tasksEvicted += 1
            }
            try meter.settle()
        }
    }

    /// Prunes when the file's pages in use passed its cap, the last pruning by age is an hour
    /// old, or task_activity may have passed its bound (`activityRows`, counted up by every
    /// batch, nil until the first prune of the session); gives free pages back when the file
    /// alone is over the cap.
    func pruneIfDue(now: Date) throws(CacheError) {
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
}
