import Foundation
import Testing

@testable import MakimaKit

/// Lists round-trip through a real SQLite file with their fetch times.
@Suite struct CacheSnapshotTests {
    let dir = CacheTempDir()

    private func openStore() throws -> CacheStore {
        try CacheStore.open(file: dir.databaseFile).store
    }

    private func sameTime(_ a: Date?, _ b: Date) -> Bool {
        guard let a else { return false }
        return abs(a.timeIntervalSince(b)) < 0.001
    }

    @Test func everyCollectionRoundTripsWithItsFetchTime() throws {
        let store = try openStore()
        let f = CacheFixtures.self
        try store.replaceDaemons(f.daemons, fetchedAt: f.t0.addingTimeInterval(1))
        try store.replaceContracts(f.contracts, fetchedAt: f.t0.addingTimeInterval(2))
        try store.replaceTasks(f.tasks, fetchedAt: f.t0.addingTimeInterval(3.25))
        try store.replaceDirectives(f.directives, fetchedAt: f.t0.addingTimeInterval(4))
        try store.replaceListenSessions(f.listenSessions, fetchedAt: f.t0.addingTimeInterval(5))
        store.close()

        // A new connection on the same file: what a restart sees.
        let reopened = try openStore()
        let daemons = try #require(try reopened.loadDaemons())
        #expect(daemons.items == f.daemons)
        #expect(sameTime(daemons.fetchedAt, f.t0.addingTimeInterval(1)))
        let contracts = try #require(try reopened.loadContracts())
        #expect(contracts.items == f.contracts)
        #expect(sameTime(contracts.fetchedAt, f.t0.addingTimeInterval(2)))
        let tasks = try #require(try reopened.loadTasks())
        #expect(tasks.items == f.tasks)
        #expect(sameTime(tasks.fetchedAt, f.t0.addingTimeInterval(3.25)))
        let directives = try #require(try reopened.loadDirectives())
        #expect(directives.items == f.directives)
        #expect(sameTime(directives.fetchedAt, f.t0.addingTimeInterval(4)))
        let sessions = try #require(try reopened.loadListenSessions())
        #expect(sessions.items == f.listenSessions)
        #expect(sameTime(sessions.fetchedAt, f.t0.addingTimeInterval(5)))
        #expect(
            [daemons.skipped, contracts.skipped, tasks.skipped, directives.skipped, sessions.skipped]
                == [Int](repeating: 0, count: 5))
    }

    @Test func neverFetchedIsNilAndAnEmptyFetchIsAnEmptyList() throws {
        let store = try openStore()
        #expect(try store.loadTasks() == nil)
        try store.replaceTasks([], fetchedAt: CacheFixtures.t0)
        let empty = try #require(try store.loadTasks())
        #expect(empty.items.isEmpty)
        #expect(sameTime(empty.fetchedAt, CacheFixtures.t0))
    }

    @Test func replacingSwapsTheWholeListAndKeepsServerOrder() throws {
        let store = try openStore()
        try store.replaceTasks(CacheFixtures.tasks, fetchedAt: CacheFixtures.t0)
        let newer = [MeshTask(id: "t9", status: .queued), MeshTask(id: "t1", title: "Renamed", status: .completed)]
        try store.replaceTasks(newer, fetchedAt: CacheFixtures.t0.addingTimeInterval(30))
        let loaded = try #require(try store.loadTasks())
        #expect(loaded.items.map(\.id) == ["t9", "t1"])
        #expect(loaded.items[1].title == "Renamed")
        #expect(sameTime(loaded.fetchedAt, CacheFixtures.t0.addingTimeInterval(30)))
    }

    @Test func queriesAreSeparateCollectionsWithTheirOwnAge() throws {
        let store = try openStore()
        let running = CacheFixtures.tasks.filter { $0.status == .running }
        try store.replaceTasks(CacheFixtures.tasks, fetchedAt: CacheFixtures.t0)
        try store.replaceTasks(running, fetchedAt: CacheFixtures.t0.addingTimeInterval(60), query: "status=running")
        try store.replaceDaemons(CacheFixtures.daemons, fetchedAt: CacheFixtures.t0.addingTimeInterval(7))

        #expect(try store.loadTasks()?.items.count == 3)
        #expect(try store.loadTasks(query: "status=running")?.items == running)
        #expect(try store.loadTasks(query: "status=failed") == nil)
        let times = try store.collectionFetchTimes()
        #expect(Set(times.keys) == ["tasks", "tasks?status=running", "daemons"])
        #expect(sameTime(times["tasks?status=running"], CacheFixtures.t0.addingTimeInterval(60)))
        #expect(sameTime(times["daemons"], CacheFixtures.t0.addingTimeInterval(7)))
    }

    @Test func aTaskIsFoundByIDInTheMostRecentlyFetchedList() throws {
        let store = try openStore()
        try store.replaceTasks([MeshTask(id: "t1", title: "old", status: .running)], fetchedAt: CacheFixtures.t0)
        try store.replaceTasks(
            [MeshTask(id: "t1", title: "new", status: .completed)], fetchedAt: CacheFixtures.t0.addingTimeInterval(5),
            query: "status=completed")
        let found = try #require(try store.loadTask(id: "t1"))
        #expect(found.value.title == "new")
        #expect(sameTime(found.fetchedAt, CacheFixtures.t0.addingTimeInterval(5)))
        #expect(try store.loadTask(id: "nope") == nil)
    }

    @Test func aListenSessionDetailKeepsItsTranscript() throws {
        let store = try openStore()
        #expect(try store.loadListenSessionDetail(id: "l1") == nil)
        try store.saveListenSessionDetail(
            CacheFixtures.sessionDetail, fetchedAt: CacheFixtures.t0.addingTimeInterval(3))
        let cached = try #require(try store.loadListenSessionDetail(id: "l1"))
        #expect(cached.value == CacheFixtures.sessionDetail)
        #expect(cached.value.transcript?.count == 2)
        #expect(sameTime(cached.fetchedAt, CacheFixtures.t0.addingTimeInterval(3)))
    }

    @Test func aRowThatNoLongerDecodesIsSkippedNotFatal() throws {
        let rows = [try CacheStore.encodeJSON(CacheFixtures.daemons[0]), #"{"hostname":"no id"}"#, "not json"]
        let decoded = CacheStore.decodeRows(Daemon.self, rows)
        #expect(decoded.items == [CacheFixtures.daemons[0]])
        #expect(decoded.skipped == 2)
    }
}
