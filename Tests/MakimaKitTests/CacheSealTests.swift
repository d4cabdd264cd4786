import Foundation
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
}
