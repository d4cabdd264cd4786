import Foundation
import Synchronization

/// The cache's space, in one place: it measures the file against its cap, decides after each
/// write whether to prune, and frees (`CacheSpaceManager+Free.swift`). The rules it applies are
/// `CacheRetention`'s (the cap, the age of finished tasks) and `CacheBounds`' (each table's
/// own bound); `CapMeter` measures while it trims. The event writer only tells it what it
/// wrote (`batchWritten`, `taskRowsCounted`) and asks it after every transaction
/// (`CacheStore.pruneIfDue`).
///
/// Threads: its state has one lock of its own, always taken last (inside the store's
/// connection lock or with no lock held), never around another.
final class CacheSpaceManager: Sendable {
    let retention: CacheRetention
    /// The task table's share in rows (`CacheStore.maxTaskRows`).
    let maxTaskRows: Int

    private struct State {
        /// When the last pruning by age ran (pruning by size is checked after every append).
        var lastAgePrune: Date?
        /// task_activity's rows when last counted, plus the tasks of every batch since: past
        /// the task table's share, the next append prunes (`CacheBounds`). Nil until the first
        /// prune with bounds, which the writer's first append runs.
        var activityRows: Int?
        /// The task table's rows when last counted (by a pass or a batch of statuses): the
        /// bytes they take are the tasks' own share, not the output's.
        var taskRows: Int?
        /// Whether this session checked that the file gives pages back
        /// (`switchToIncrementalVacuum`).
        var vacuumModeChecked = false
    }

    private let state = Mutex(State())

    init(retention: CacheRetention, maxTaskRows: Int) {
        self.retention = retention
        self.maxTaskRows = maxTaskRows
    }

    // MARK: Measure

    /// The file against its cap: the output's `maxBytes` plus the task table's share.
    struct Measure: Equatable {
        /// Bytes of the pages in use.
        var used: Int
        /// Bytes of the file's pages, in use or free.
        var file: Int
        var cap: Int
    }

    func measure(_ db: SQLiteDatabase) throws -> Measure {
        Measure(used: try Self.usedBytes(db), file: try Self.fileBytes(db), cap: try cap(db))
    }

    /// The output's cap with the task table's share on top of it.
    func cap(_ db: SQLiteDatabase) throws -> Int { retention.maxBytes + (try taskShareBytes(db)) }

    /// The bytes the output's cap does not count: the task table's rows, up to its share
    /// (counted once after opening, then kept by the writers).
    func taskShareBytes(_ db: SQLiteDatabase) throws -> Int {
        let known = state.withLock { $0.taskRows }
        return min(try known ?? countTaskRows(db), maxTaskRows) * CacheStore.bytesPerTaskRow
    }

    /// Counts the task table's rows (with the connection held) and remembers it.
    func countTaskRows(_ db: SQLiteDatabase) throws -> Int {
        let rows = Int(try db.scalarInt("SELECT count(*) FROM task_rows") ?? 0)
        taskRowsCounted(rows)
        return rows
    }

    /// A writer of the task table knows its rows now.
    func taskRowsCounted(_ rows: Int) { state.withLock { $0.taskRows = rows } }

    /// A batch of events recorded the activity of `tasks` tasks: at most one new row each.
    func batchWritten(tasks: Int) { state.withLock { s in s.activityRows = s.activityRows.map { $0 + tasks } } }

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

    // MARK: Decide

    enum Decision: Equatable {
        /// A full prune (`CacheStore.prune`).
        case prune
        /// Only the free pages go back: the file is over its cap, the pages in use are not.
        case giveBackPages
        case nothing
    }

    /// After a write: prune when the pages in use passed the cap, the last pruning by age is
    /// an hour old, or task_activity may have passed its bound (nil until the first prune of
    /// the session); give free pages back when the file alone is over the cap.
    func decide(now: Date, _ measure: Measure) -> Decision {
        let (ageDue, tasksDue) = state.withLock { s in
            (s.lastAgePrune.map { now.timeIntervalSince($0) >= 3_600 } ?? true, (s.activityRows ?? .max) > maxTaskRows)
        }
        if ageDue || measure.used > measure.cap || tasksDue { return .prune }
        return measure.file > measure.cap ? .giveBackPages : .nothing
    }

    /// A prune starts at `now`: the age clock restarts; returns whether this prune checks the
    /// file's vacuum mode (the first with `bounds` of the session).
    func pruneStarting(now: Date, bounds: Bool) -> Bool {
        state.withLock { s in
            s.lastAgePrune = now
            guard bounds, !s.vacuumModeChecked else { return false }
            s.vacuumModeChecked = true
            return true
        }
    }

    /// The tables' bounds were applied: task_activity holds `rows`.
    func activityCounted(_ rows: Int) { state.withLock { $0.activityRows = rows } }
}
