import Foundation
import Testing

@testable import MakimaKit

/// What a list saved through its kind (the path the sync engine takes) also feeds.
@Suite struct ListKindSaveTests {
    let dir = CacheTempDir()

    /// The daemons list the dashboard fetches records the daemons online in the activity
    /// history (its snapshot's key is not empty: only a list asked for with a filter is left out).
    @Test func theDaemonsListSavedByItsKindRecordsTheDaemonsOnline() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        defer { store.close() }
        let now = Date()
        let bridge = CacheBridge(cache: store)
        try bridge.store(.daemons, .daemons(CacheFixtures.daemons), fetchedAt: now)
        let online = CacheFixtures.daemons.count { $0.status.isOnline }
        #expect(try store.activity(now: now).minutes.last?.daemonsOnline == online)
    }

    /// A filtered list is not the whole mesh: a kind's list asked with a parameter records nothing.
    @Test func aFilteredListRecordsNothing() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        defer { store.close() }
        let now = Date()
        let filtered = ListKinds.daemons.query([ListParameter("status", "online")])
        try CacheBridge(cache: store).store(filtered, .daemons(CacheFixtures.daemons), fetchedAt: now)
        #expect(try store.activity(now: now).minutes.last?.daemonsOnline == nil)
    }
}
