import Foundation
import Testing

@testable import MakimaKit

/// A cache whose header says something no build wrote (a negative schema version, a version
/// whose tables do not match it, any one byte of the header changed) is moved aside and
/// replaced, never a crash at start and never a cache that stays unavailable.
@Suite struct CacheDamagedHeaderTests {
    let dir = CacheTempDir()
    var file: URL { dir.databaseFile }
    var profileDir: URL { file.deletingLastPathComponent() }

    private func asideCopies() -> [String] {
        dir.entries(in: profileDir).filter { $0.hasPrefix("cache.sqlite.corrupt-") }
    }

    /// A real cache with rows, closed, so the whole database is in the main file.
    private func writeCache() throws {
        let store = try CacheStore.open(file: file).store
        try store.replace(CacheFixtures.tasks, in: .taskSnapshots, query: "", fetchedAt: CacheFixtures.t0)
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...300))
        store.close()
    }

    private func setUserVersion(_ v: Int) throws {
        let raw = try SQLiteDatabase(path: file.path)
        try raw.exec("PRAGMA user_version = \(v)")
        raw.close()
    }

    private func expectUsable(_ store: CacheStore) throws {
        #expect(try store.appendEvents(CacheFixtures.outputEvents(task: "t", seqs: 1...3)) == 3)
        #expect(try store.lastSeenSeqs()["t"] == 3)
    }

    @Test(arguments: [-1, -2, Int(Int32.min)])
    func aNegativeSchemaVersionIsMovedAsideNotACrash(version: Int) throws {
        try writeCache()
        try setUserVersion(version)
        let opened = try CacheStore.open(file: file, now: CacheFixtures.t0)
        let notice = try #require(opened.notice)
        #expect(notice.contains("schema version \(version)"))
        #expect(asideCopies().count == 1)
        try expectUsable(opened.store)
        opened.store.close()
        // Told once: the replacement opens without a notice.
        #expect(try CacheStore.open(file: file).notice == nil)
    }

    /// The tables are there but the version says they are not: creating them again fails.
    @Test(arguments: [0, 1])
    func aVersionBelowItsTablesIsMovedAside(version: Int) throws {
        try writeCache()
        try setUserVersion(version)
        let opened = try CacheStore.open(file: file, now: CacheFixtures.t0)
        let notice = try #require(opened.notice)
        #expect(notice.contains("does not match its schema version \(version)"))
        #expect(asideCopies().count == 1)
        try expectUsable(opened.store)
    }

    /// Every byte of the 100-byte header, one at a time, inverted: the cache opens (the byte
    /// mattered to nobody) or is moved aside and replaced; the open never throws or traps.
    @Test func everyHeaderByteFlippedOpensOrIsReplaced() throws {
        try writeCache()
        let pristine = try Data(contentsOf: file)
        var replaced = 0
        for offset in 0..<100 {
            for name in dir.entries(in: profileDir) {
                try FileManager.default.removeItem(at: profileDir.appendingPathComponent(name))
            }
            var damaged = pristine
            damaged[offset] ^= 0xFF
            try damaged.write(to: file)
            let opened: CacheOpenResult
            do { opened = try CacheStore.open(file: file, now: CacheFixtures.t0) } catch {
                Issue.record("byte \(offset) flipped: the cache stayed unavailable: \(error)")
                continue
            }
            if opened.notice != nil { replaced += 1 }
            #expect(opened.notice == nil || asideCopies().count == 1, "byte \(offset)")
            do { try expectUsable(opened.store) } catch {
                Issue.record("byte \(offset) flipped: opened but unusable: \(error)")
            }
            opened.store.close()
        }
        #expect(replaced > 10)
    }
}
