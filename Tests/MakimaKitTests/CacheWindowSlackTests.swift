import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// What a long stream writes: a task's window is trimmed once per slack (`ChunkWriter.slack`),
/// not at every batch, and reads see the window all the same; the connection frees pages
/// without writing them; the search index merges its segments less often.
@Suite struct CacheWindowSlackTests {
    let dir = CacheTempDir()

    private func openStore(keep: Int) throws -> CacheStore {
        let store = try CacheStore.open(file: dir.databaseFile, eventsKeptPerTask: keep).store
        store.indexInterval.withLock { $0 = .infinity }
        return store
    }

    private func chunkRows(_ store: CacheStore) throws -> Int {
        try store.withDatabase { db in Int(try db.scalarInt("SELECT count(*) FROM task_chunks") ?? 0) }
    }

    /// 4 tasks, 5 pieces each per batch (a chunk a task a batch), a window of 160 and so a
    /// slack of 20: once past it, the chunks are trimmed every fifth batch, the other batches
    /// only add their chunks. Trimmed at every batch (no slack), 28 of these 60 batches would
    /// have deleted rows.
    @Test func theWindowIsTrimmedOncePerSlackNotPerBatch() throws {
        let keep = 160
        #expect(ChunkWriter.slack(keep: keep) == 20)
        let store = try openStore(keep: keep)
        defer { store.close() }
        let task = "stream-task-2-4f1c-9a2b-7d3e5f60a1b2"
        var trims: [Int] = []
        var rows = 0
        for b in 0..<60 {
            try store.appendEvents(CacheChunkWorkTests.batch(tasks: 4, perTask: 5, from: b * 5 + 1))
            let now = try chunkRows(store)
            if now < rows + 4 { trims.append(b) }
            rows = now
            // At most the window and its slack are held (in chunks of 5), and reads keep to
            // the window alone.
            let top = (b + 1) * 5
            #expect(rows <= 4 * (keep + 20) / 5)
            #expect(try store.eventCount(taskID: task) == min(top, keep))
            let seqs = try store.events(taskID: task, limit: 10_000).map(\.seq)
            #expect(seqs == Array(max(1, top - keep + 1)...top))
        }
        #expect(trims == [36, 41, 46, 51, 56], "batches that deleted chunks: \(trims)")
        #expect(try store.latestEvents(taskID: task, limit: 50).map(\.seq) == Array(251...300))
    }

    /// A window under 8 has no slack: it is trimmed as before, at every batch past it.
    @Test func aSmallWindowIsTrimmedAtEveryBatch() throws {
        let store = try openStore(keep: 7)
        defer { store.close() }
        for b in 0..<10 {
            try store.appendEvents(CacheFixtures.outputEvents(task: "s", seqs: (b * 7 + 1)...(b * 7 + 7)))
            #expect(try chunkRows(store) == 1)
        }
        #expect(try store.events(taskID: "s").map(\.seq) == Array(64...70))
    }

    /// The search index merges its segments 8 at a time (`OutputSearchIndex.automerge`), an
    /// index made before told so by the first catch-up.
    @Test func theIndexMergesEightSegmentsAtATime() throws {
        let store = try openStore(keep: 2_000)
        defer { store.close() }
        let setting = { () throws -> Int64? in
            try store.withDatabase { db in try db.scalarInt("SELECT v FROM output_search_config WHERE k = 'automerge'")
            }
        }
        try store.appendEvents(CacheFixtures.outputEvents(task: "m", seqs: 1...3))
        try store.indexPendingLines()
        #expect(try setting() == 8)
        try store.withDatabase { db in
            try db.exec("INSERT INTO output_search (output_search, rank) VALUES ('automerge', 4)")
        }
        #expect(try setting() == 4)
        #expect(try store.searchOutput("m line 2").map(\.lineNumber) == [2])
        #expect(try setting() == 8)
    }

    /// Debian's SQLite zeroes and writes every page freed (`secure_delete` on): the cache's
    /// connection asks for FAST, which writes no page that was not being written anyway.
    @Test func freedPagesAreNotWrittenOnlyToBeZeroed() throws {
        let store = try openStore(keep: 2_000)
        defer { store.close() }
        #expect(try store.withDatabase { db in try db.scalarInt("PRAGMA secure_delete") } == 2)
    }
}
