import Foundation
import Testing

@testable import MakimaKit

@MainActor @Suite struct CacheBridgeTests {
    @Test func storesPaintFromTheCacheMarkedStale() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let bridge = CacheBridge(cache: try CacheStore.open(file: dir.appendingPathComponent("cache.sqlite")).store)
        try bridge.store(
            .daemons, .daemons([Daemon(id: "a", status: .online), Daemon(id: "b", status: .offline)]), fetchedAt: at)
        try bridge.store(
            .tasks(status: .running, contractID: nil), .tasks([MeshTask(id: "t", title: "契約テスト", status: .running)]),
            fetchedAt: at)

        let (updates, problem) = bridge.cachedUpdates()
        #expect(problem == nil)
        #expect(updates.count == 2)
        let hub = StoreHub()
        // Task lists are read where the dashboard reads them: the cache's task table.
        hub.tasks.useTable(TaskTable.reading(bridge.cache.file))
        updates.forEach(hub.apply)
        #expect(hub.daemons.list.isStale)
        #expect(hub.daemons.onlineCount == 1)
        #expect(hub.daemons.list.fetchedAt == at)
        #expect(hub.tasks.running.map(\.displayTitle) == ["契約テスト"])
    }
}
