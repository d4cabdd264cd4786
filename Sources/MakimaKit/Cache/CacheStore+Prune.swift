import Foundation

/// The retention applied, by the store's `CacheSpaceManager`: at opening, after every write of
/// events, and when a caller asks.
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

    /// Applies the retention (`CacheSpaceManager.free`): finished tasks past their age, every
    /// table's own bound (`CacheBounds`, with `bounds`: the writer's prunes, not the one at
    /// opening, which may be on the UI thread), then the cap on the file's bytes.
    @discardableResult
    public func prune(now: Date = Date(), bounds: Bool = true) throws(CacheError) -> PruneResult {
        let switchMode = space.pruneStarting(now: now, bounds: bounds)
        return try withDatabase { db in try space.free(db, now: now, bounds: bounds, switchMode: switchMode) }
    }

    /// The writer's check after a write: what the space manager decides on the file's measure.
    func pruneIfDue(now: Date) throws(CacheError) {
        let decision = try withDatabase { db in space.decide(now: now, try space.measure(db)) }
        switch decision {
        case .prune: try prune(now: now)
        case .giveBackPages: _ = try withDatabase { db in try CacheSpaceManager.giveBackFreePages(db) }
        case .nothing: break
        }
    }

    /// Counts the task table's rows (with the connection held) for its share of the cap.
    func countTaskRows(_ db: SQLiteDatabase) throws -> Int { try space.countTaskRows(db) }
}
