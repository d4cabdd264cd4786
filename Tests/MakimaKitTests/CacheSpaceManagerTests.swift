import Foundation
import Testing

@testable import MakimaKit

/// The space manager's decision after a write, on measures given by hand.
@Suite struct CacheSpaceManagerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func manager(maxTaskRows: Int = 100) -> CacheSpaceManager {
        CacheSpaceManager(retention: .standard, maxTaskRows: maxTaskRows)
    }

    static let under = CacheSpaceManager.Measure(used: 10, file: 20, cap: 100)

    @Test func theFirstWriteOfASessionPrunesByAge() {
        #expect(Self.manager().decide(now: Self.now, Self.under) == .prune)
    }

    @Test func afterAPruneOnlyTheCapTheAgeOrTheActivityBoundPrunesAgain() {
        let space = Self.manager()
        _ = space.pruneStarting(now: Self.now, bounds: true)
        space.activityCounted(90)
        #expect(space.decide(now: Self.now, Self.under) == .nothing)
        #expect(space.decide(now: Self.now, .init(used: 101, file: 120, cap: 100)) == .prune)
        #expect(space.decide(now: Self.now, .init(used: 90, file: 120, cap: 100)) == .giveBackPages)
        #expect(space.decide(now: Self.now.addingTimeInterval(3_599), Self.under) == .nothing)
        #expect(space.decide(now: Self.now.addingTimeInterval(3_600), Self.under) == .prune)
        // Each batch counts its tasks up: past the bound the next write prunes.
        space.batchWritten(tasks: 10)
        #expect(space.decide(now: Self.now, Self.under) == .nothing)
        space.batchWritten(tasks: 1)
        #expect(space.decide(now: Self.now, Self.under) == .prune)
    }

    /// Until the first prune with bounds counted task_activity, every write prunes.
    @Test func anUncountedActivityTablePrunes() {
        let space = Self.manager()
        _ = space.pruneStarting(now: Self.now, bounds: false)
        space.batchWritten(tasks: 1)
        #expect(space.decide(now: Self.now, Self.under) == .prune)
    }

    /// The vacuum mode is checked once a session, by the first prune with bounds.
    @Test func theVacuumModeIsCheckedOnce() {
        let space = Self.manager()
        #expect(!space.pruneStarting(now: Self.now, bounds: false))
        #expect(space.pruneStarting(now: Self.now, bounds: true))
        #expect(!space.pruneStarting(now: Self.now, bounds: true))
    }
}
