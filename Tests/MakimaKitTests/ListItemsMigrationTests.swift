import Foundation
import Testing

@testable import MakimaKit

/// The snapshots of every kind but tasks moved from a table per kind into one (`list_items`,
/// rows saying their kind): a cache written before keeps its lists, and they read back the same.
@Suite struct ListItemsMigrationTests {
    let dir = CacheTempDir()
    var file: URL { dir.databaseFile }

    /// A version-4 cache, as the build before wrote it: one table per kind.
    private func writeVersion4Cache() throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let raw = try SQLiteDatabase(path: file.path)
        for step in CacheSchema.migrations.prefix(4) { try raw.exec(step) }
        try raw.exec("PRAGMA user_version = 4")
        func put<Item: Encodable & Identifiable>(_ items: [Item], table: String, key: String) throws
        where Item.ID == String {
            try raw.exec(
                "INSERT INTO collections (key, fetched_at) VALUES ('\(key)', \(CacheFixtures.t0.timeIntervalSince1970))"
            )
            for (position, item) in items.enumerated() {
                let json = try CacheStore.encodeJSON(item).replacingOccurrences(of: "'", with: "''")
                try raw.exec(
                    "INSERT INTO \(table) (collection, position, id, json) VALUES ('\(key)', \(position), '\(item.id)', '\(json)')"
                )
            }
        }
        try put(CacheFixtures.daemons, table: "daemons", key: "daemons")
        try put(CacheFixtures.contracts, table: "contracts", key: "contracts?status=active")
        try put(CacheFixtures.directives, table: "directives", key: "directives")
        try put(CacheFixtures.listenSessions, table: "listen_sessions", key: "listen_sessions")
        try put(CacheFixtures.tasks, table: "tasks", key: "tasks")
        raw.close()
    }

    @Test func aVersion4CacheKeepsEveryKindsListsInTheSharedTable() throws {
        try writeVersion4Cache()
        let opened = try CacheStore.open(file: file)
        #expect(opened.notice == nil)
        let store = opened.store
        #expect(try store.load(Daemon.self, from: .daemons, query: "")?.items == CacheFixtures.daemons)
        #expect(
            try store.load(Contract.self, from: .contracts, query: "status=active")?.items == CacheFixtures.contracts)
        #expect(try store.load(Directive.self, from: .directives, query: "")?.items == CacheFixtures.directives)
        #expect(
            try store.load(ListenSession.self, from: .listenSessions, query: "")?.items == CacheFixtures.listenSessions)
        // Task lists are not snapshots any more: their rows come back with the next fetch
        // (the task table's migration drops the old snapshots and their fetch times).
        #expect(try store.taskListFetchedAt(key: "tasks") == nil)
        #expect(try store.load(Daemon.self, from: .daemons, query: "")?.fetchedAt == CacheFixtures.t0)
        store.close()

        let check = try SQLiteDatabase(path: file.path)
        defer { check.close() }
        #expect(try check.scalarInt("PRAGMA user_version") == Int64(CacheSchema.version))
        for gone in ["daemons", "contracts", "directives", "listen_sessions"] {
            #expect(try check.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = '\(gone)'") == 0)
        }
        #expect(
            try check.scalarInt("SELECT count(*) FROM list_items WHERE kind = 'daemons'")
                == Int64(CacheFixtures.daemons.count))
        #expect(
            try check.scalarInt("SELECT count(*) FROM list_items WHERE kind = 'listen_sessions'")
                == Int64(CacheFixtures.listenSessions.count))
    }

    /// A list saved now goes to the shared table with its kind, and replaces only its own
    /// collection: another kind's rows stay.
    @Test func aSavedListReplacesItsOwnCollectionOnly() throws {
        let store = try CacheStore.open(file: file).store
        defer { store.close() }
        try store.replace(CacheFixtures.daemons, in: .daemons, query: "", fetchedAt: CacheFixtures.t0)
        try store.replace(CacheFixtures.contracts, in: .contracts, query: "", fetchedAt: CacheFixtures.t0)
        try store.replace(Array(CacheFixtures.daemons.prefix(1)), in: .daemons, query: "", fetchedAt: CacheFixtures.t0)
        #expect(try store.load(Daemon.self, from: .daemons, query: "")?.items == Array(CacheFixtures.daemons.prefix(1)))
        #expect(try store.load(Contract.self, from: .contracts, query: "")?.items == CacheFixtures.contracts)
    }
}
