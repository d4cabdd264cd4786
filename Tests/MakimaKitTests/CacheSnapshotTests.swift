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
        try store.replace(f.daemons, in: .daemons, query: "", fetchedAt: f.t0.addingTimeInterval(1))
        try store.replace(f.contracts, in: .contracts, query: "", fetchedAt: f.t0.addingTimeInterval(2))
        try store.replace(f.tasks, in: .taskSnapshots, query: "", fetchedAt: f.t0.addingTimeInterval(3.25))
        try store.replace(f.directives, in: .directives, query: "", fetchedAt: f.t0.addingTimeInterval(4))
        try store.replace(f.listenSessions, in: .listenSessions, query: "", fetchedAt: f.t0.addingTimeInterval(5))
        store.close()

        // A new connection on the same file: what a restart sees.
        let reopened = try openStore()
        let daemons = try #require(try reopened.load(Daemon.self, from: .daemons, query: ""))
        #expect(daemons.items == f.daemons)
        #expect(sameTime(daemons.fetchedAt, f.t0.addingTimeInterval(1)))
        let contracts = try #require(try reopened.load(Contract.self, from: .contracts, query: ""))
        #expect(contracts.items == f.contracts)
        #expect(sameTime(contracts.fetchedAt, f.t0.addingTimeInterval(2)))
        let tasks = try #require(try reopened.load(MeshTask.self, from: .taskSnapshots, query: ""))
        #expect(tasks.items == f.tasks)
        #expect(sameTime(tasks.fetchedAt, f.t0.addingTimeInterval(3.25)))
        let directives = try #require(try reopened.load(Directive.self, from: .directives, query: ""))
        #expect(directives.items == f.directives)
        #expect(sameTime(directives.fetchedAt, f.t0.addingTimeInterval(4)))
        let sessions = try #require(try reopened.load(ListenSession.self, from: .listenSessions, query: ""))
        #expect(sessions.items == f.listenSessions)
        #expect(sameTime(sessions.fetchedAt, f.t0.addingTimeInterval(5)))
        #expect(
            [daemons.skipped, contracts.skipped, tasks.skipped, directives.skipped, sessions.skipped]
                == [Int](repeating: 0, count: 5))
    }

    @Test func neverFetchedIsNilAndAnEmptyFetchIsAnEmptyList() throws {
        let store = try openStore()
        #expect(try store.load(MeshTask.self, from: .taskSnapshots, query: "") == nil)
        try store.replace([MeshTask](), in: .taskSnapshots, query: "", fetchedAt: CacheFixtures.t0)
        let empty = try #require(try store.load(MeshTask.self, from: .taskSnapshots, query: ""))
        #expect(empty.items.isEmpty)
        #expect(sameTime(empty.fetchedAt, CacheFixtures.t0))
    }

    @Test func replacingSwapsTheWholeListAndKeepsServerOrder() throws {
        let store = try openStore()
        try store.replace(CacheFixtures.tasks, in: .taskSnapshots, query: "", fetchedAt: CacheFixtures.t0)
        let newer = [MeshTask(id: "t9", status: .queued), MeshTask(id: "t1", title: "Renamed", status: .completed)]
        try store.replace(newer, in: .taskSnapshots, query: "", fetchedAt: CacheFixtures.t0.addingTimeInterval(30))
        let loaded = try #require(try store.load(MeshTask.self, from: .taskSnapshots, query: ""))
        #expect(loaded.items.map(\.id) == ["t9", "t1"])
        #expect(loaded.items[1].title == "Renamed")
        #expect(sameTime(loaded.fetchedAt, CacheFixtures.t0.addingTimeInterval(30)))
    }

    @Test func queriesAreSeparateCollectionsWithTheirOwnAge() throws {
        let store = try openStore()
        let running = CacheFixtures.tasks.filter { $0.status == .running }
        try store.replace(CacheFixtures.tasks, in: .taskSnapshots, query: "", fetchedAt: CacheFixtures.t0)
        try store.replace(
            running, in: .taskSnapshots, query: "status=running", fetchedAt: CacheFixtures.t0.addingTimeInterval(60))
        try store.replace(
            CacheFixtures.daemons, in: .daemons, query: "", fetchedAt: CacheFixtures.t0.addingTimeInterval(7))

        #expect(try store.load(MeshTask.self, from: .taskSnapshots, query: "")?.items.count == 3)
        #expect(try store.load(MeshTask.self, from: .taskSnapshots, query: "status=running")?.items == running)
        #expect(try store.load(MeshTask.self, from: .taskSnapshots, query: "status=failed") == nil)
        let times = try store.collectionFetchTimes()
        #expect(Set(times.keys) == ["tasks", "tasks?status=running", "daemons"])
        #expect(sameTime(times["tasks?status=running"], CacheFixtures.t0.addingTimeInterval(60)))
        #expect(sameTime(times["daemons"], CacheFixtures.t0.addingTimeInterval(7)))
    }

    /// What a `makima://task/{id}` link opened before the first refresh shows: the task's row,
    /// as the most recently saved list left it, read on another connection (a restart).
    @Test func aTaskIsFoundByIDAsTheMostRecentlySavedListLeftIt() throws {
        let store = try openStore()
        let bridge = CacheBridge(cache: store)
        try bridge.store(
            .tasks(status: nil, contractID: nil), .tasks([MeshTask(id: "t1", title: "old", status: .running)]),
            fetchedAt: CacheFixtures.t0)
        try bridge.store(
            .tasks(status: .completed, contractID: nil), .tasks([MeshTask(id: "t1", title: "new", status: .completed)]),
            fetchedAt: CacheFixtures.t0.addingTimeInterval(5))
        store.close()
        let table = TaskTable.reading(dir.databaseFile)
        defer { table.close() }
        let found = try #require(table.task(id: "t1"))
        #expect(found.title == "new" && found.status == .completed)
        let completed = ListQuery.tasks(status: .completed, contractID: nil).description
        #expect(sameTime(try openStore().taskListFetchedAt(key: completed), CacheFixtures.t0.addingTimeInterval(5)))
        #expect(table.task(id: "nope") == nil)
    }

    @Test func aListenSessionKeepsItsTranscript() throws {
        let store = try openStore()
        try store.replace(
            [CacheFixtures.sessionDetail], in: .listenSessions, query: "",
            fetchedAt: CacheFixtures.t0.addingTimeInterval(3))
        let cached = try #require(try store.load(ListenSession.self, from: .listenSessions, query: ""))
        #expect(cached.items == [CacheFixtures.sessionDetail])
        #expect(cached.items.first?.transcript?.count == 2)
        #expect(sameTime(cached.fetchedAt, CacheFixtures.t0.addingTimeInterval(3)))
    }

    @Test func aRowThatNoLongerDecodesIsSkippedNotFatal() throws {
        let rows = [try CacheStore.encodeJSON(CacheFixtures.daemons[0]), #"{"hostname":"no id"}"#, "not json"]
        let decoded = CacheStore.decodeRows(Daemon.self, rows)
        #expect(decoded.items == [CacheFixtures.daemons[0]])
        #expect(decoded.skipped == 2)
    }
}
