import Foundation

/// Freeing: the retention applied (`CacheRetention`): finished tasks by age, every table's own
/// bound (`CacheBounds`), the cap on the file's bytes, and the pages freed given back.
extension CacheSpaceManager {
    /// Drops the events of finished tasks quiet past the age, applies every table's own bound
    /// (with `bounds`), then, while the pages in use are over the cap, trims the least recently
    /// active tasks (finished first) to their newest event, then removes whole tasks in that
    /// order, until they are under 80% of the output's cap (so appends do not prune at every
    /// batch). The pages freed go back to the file system; with `switchMode` a file made
    /// before that is switched to giving them back first. Call with the connection held.
    func free(_ db: SQLiteDatabase, now: Date, bounds: Bool, switchMode: Bool) throws -> CacheStore.PruneResult {
        let cap = try self.cap(db)
        var result = CacheStore.PruneResult()
        let cutoff = now.timeIntervalSince1970 - retention.finishedTaskAge
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
            activityCounted(Int(try db.scalarInt("SELECT count(*) FROM task_activity") ?? 0))
        }
        if try Self.usedBytes(db) > cap {
            try Self.trimForSize(db, target: cap - retention.maxBytes / 5, into: &result)
        }
        // A switch that fails (no room for the copy, a lock) is tried again next session.
        if switchMode { result.vacuumed = (try? Self.switchToIncrementalVacuum(db)) ?? false }
        result.pagesGivenBack = try Self.giveBackFreePages(db)
        return result
    }

    /// The cap's trimming, in activity order (least recently active first, finished before
    /// running): each task down to its newest event until the file is under `target`, then, if
    /// that is not enough (many tasks, each with one large event), whole tasks in the same
    /// order.
    private static func trimForSize(_ db: SQLiteDatabase, target: Int, into result: inout CacheStore.PruneResult)
        throws
    {
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
        let trimLines = try db.prepare("DELETE FROM task_lines WHERE num = ?1")
        var meter = try CapMeter(db, target: target)
        for task in tasks {
            if try !meter.isOver() { break }
            try meter.linesLeaving(task.id)
            let n = try trim.toNewest(task.num, taskID: task.id)
            try trimLines.run(task.num)
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
}
