import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// The seal a clean close leaves: an unchanged file skips the full check at its next opening;
/// a file changed since (damaged in place, its size kept), or one a crash left unsealed, is
/// checked in full and moved aside when damaged.
@Suite struct CacheSealTests {
    let dir = CacheTempDir()

    private func populated() throws -> URL {
        let file = dir.databaseFile
        let store = try CacheStore.open(file: file).store
        try store.saveTaskList(
            (0..<2_000).map { MeshTask(id: "t\($0)", title: "task \($0)", status: .completed) }, filter: .init(),
            key: "tasks", fetchedAt: Date(), whole: true)
        store.close()
        return file
    }

    @Test func aCleanCloseSealsTheFileAndTheNextOpeningTakesTheSeal() throws {
        let file = try populated()
        #expect(FileManager.default.fileExists(atPath: CacheSeal.sealPath(file.path)))
        let opened = try CacheStore.open(file: file)
        #expect(opened.notice == nil)
        #expect(
            !FileManager.default.fileExists(atPath: CacheSeal.sealPath(file.path)), "a crash now is checked next time")
        #expect(TaskTable.reading(file).count(.init()) == 2_000)
        opened.store.close()
    }

    @Test func aFileDamagedAfterItsCleanCloseIsStillCheckedAndMovedAside() throws {
        let file = try populated()
        // Pages in the middle overwritten, the size kept: only the modification time tells.
        let handle = try FileHandle(forUpdating: file)
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 16_384))
        try handle.close()
        let opened = try CacheStore.open(file: file)
        #expect(opened.notice?.contains("moved") == true, "\(opened.notice ?? "no notice")")
        opened.store.close()
    }

    @Test func aSealThatDoesNotMatchIsIgnored() throws {
        let file = try populated()
        try Data("0 0 0 / none".utf8).write(to: URL(fileURLWithPath: CacheSeal.sealPath(file.path)))
        #expect(!CacheSeal.take(file.path))
        #expect(!FileManager.default.fileExists(atPath: CacheSeal.sealPath(file.path)))
    }

    /// The pages of `tables` overwritten in place after the store's clean close (sealed),
    /// the size and modification time kept: damage the seal cannot see.
    static func damage(_ tables: [String], of store: CacheStore) throws {
        let pages = try store.pages(of: tables)
        #expect(!pages.isEmpty)
        store.close()
        #expect(try FileDamage.overwrite(pages: pages, of: store.file.path))
    }

    /// A store with output indexed for search: its events and index are what `grep` reads.
    private func withOutput() throws -> CacheStore {
        let store = try CacheStore.open(file: dir.databaseFile).store
        try store.appendEvents(
            (1...400).map {
                TaskEvent(
                    eventID: Int64($0), taskID: "t\($0 % 7)", seq: $0 / 7 + 1, type: .output,
                    payload: .output(text: "line \($0) of the output\n", stream: "tool"))
            })
        #expect(try store.searchOutput("line 7 of").count == 1)
        return store
    }

    /// Damage that keeps the size and modification time, met by a read: the file is marked,
    /// the close does not seal it, and the next opening moves it aside and says so, instead of
    /// skipping the check and failing the same way every time.
    @Test func aCorruptionMetWhileOpenLeavesNoSealAndTheNextOpeningReplacesTheFile() throws {
        let store = try withOutput()
        try Self.damage(["task_chunks", "output_search_data"], of: store)
        let path = dir.databaseFile.path
        #expect(FileManager.default.fileExists(atPath: CacheSeal.sealPath(path)), "sealed before the damage")
        let damaged = try CacheStore.open(file: dir.databaseFile)
        #expect(damaged.notice == nil, "the seal matches: no full check")
        #expect(throws: CacheError.self) { try damaged.store.searchOutput("line") }
        #expect(damaged.store.foundDamage)
        damaged.store.close()
        #expect(!FileManager.default.fileExists(atPath: CacheSeal.sealPath(path)), "no seal after damage")
        let fresh = try CacheStore.open(file: dir.databaseFile)
        #expect(fresh.notice?.contains("moved to cache.sqlite.corrupt-") == true, "\(fresh.notice ?? "no notice")")
        #expect(!fresh.store.foundDamage)
        #expect(try fresh.store.searchOutput("line").isEmpty)
        fresh.store.close()
        let again = try CacheStore.open(file: dir.databaseFile)
        #expect(again.notice == nil, "said once")
        again.store.close()
    }

    /// A run killed before its close leaves no seal (its opening took it), so the next opening
    /// checks the whole file and finds damage that a seal would have let through.
    @Test func aRunThatNeverClosedLeavesNoSealAndTheNextOpeningChecksInFull() throws {
        let store = try withOutput()
        let pages = try store.pages(of: ["task_chunks"])
        store.close()
        let killed = try CacheStore.open(file: dir.databaseFile)
        #expect(!FileManager.default.fileExists(atPath: CacheSeal.sealPath(dir.databaseFile.path)))
        #expect(killed.notice == nil)
        // `killed` is never closed, as a process killed with SIGKILL never closes it.
        #expect(try FileDamage.overwrite(pages: pages, of: dir.databaseFile.path))
        let next = try CacheStore.open(file: dir.databaseFile)
        #expect(next.notice?.contains("moved to cache.sqlite.corrupt-") == true, "\(next.notice ?? "no notice")")
        next.store.close()
    }

    /// The UI thread's own connection on the task table marks the file too.
    @Test func aCorruptionMetByTheTaskTableReaderMarksTheFile() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        try store.saveTaskList(
            (0..<2_000).map { MeshTask(id: "t\($0)", title: "task \($0)", status: .completed) }, filter: .init(),
            key: "tasks", fetchedAt: Date(), whole: true)
        try Self.damage(["task_rows", "task_rows_order"], of: store)
        let reopened = try CacheStore.open(file: dir.databaseFile).store
        let table = TaskTable.reading(dir.databaseFile)
        #expect(table.rows(.init(), offset: 0, limit: 2_000).count < 2_000)
        table.close()
        #expect(reopened.foundDamage)
        reopened.close()
        #expect(!FileManager.default.fileExists(atPath: CacheSeal.sealPath(dir.databaseFile.path)))
    }
}
