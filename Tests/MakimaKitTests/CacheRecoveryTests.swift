import Foundation
import Testing

@testable import MakimaKit

/// A damaged, foreign or unopenable cache file is moved aside and replaced; a full disk is an
/// error the caller can show, and the cache stays readable.
@Suite struct CacheRecoveryTests {
    let dir = CacheTempDir()
    var file: URL { dir.databaseFile }
    var profileDir: URL { file.deletingLastPathComponent() }

    private func corruptCopies() -> [String] {
        dir.entries(in: profileDir).filter { $0.hasPrefix("cache.sqlite.corrupt-") }
    }

    /// A fresh store must work end to end and be clean.
    private func expectUsable(_ store: CacheStore) throws {
        #expect(store.integrityCheck())
        #expect(try store.appendEvents(CacheFixtures.outputEvents(task: "t", seqs: 1...3)) == 3)
        try store.replace(CacheFixtures.daemons, in: .daemons, query: "", fetchedAt: CacheFixtures.t0)
        #expect(try store.load(Daemon.self, from: .daemons, query: "")?.items == CacheFixtures.daemons)
        #expect(try store.lastSeenSeqs() == ["t": 3])
    }

    /// A real cache with enough rows to span many pages, closed (its WAL checkpointed away).
    private func writePopulatedCache() throws {
        let store = try CacheStore.open(file: file).store
        try store.replace(CacheFixtures.tasks, in: .taskSnapshots, query: "", fetchedAt: CacheFixtures.t0)
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...1_500))
        try store.appendEvents(CacheFixtures.outputEvents(task: "b", seqs: 1...1_500))
        store.close()
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
    }

    @Test func garbageBytesAreMovedAsideWithANotice() throws {
        try FileManager.default.createDirectory(at: profileDir, withIntermediateDirectories: true)
        var garbage = Data((0..<8_192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        garbage.replaceSubrange(0..<6, with: Data("GARBAG".utf8))
        try garbage.write(to: file)
        try Data("stale wal".utf8).write(to: URL(fileURLWithPath: file.path + "-wal"))

        let opened = try CacheStore.open(file: file, now: CacheFixtures.t0)
        let notice = try #require(opened.notice)
        #expect(notice.contains("cache.sqlite.corrupt-20261129T080824Z"))
        let aside = profileDir.appendingPathComponent("cache.sqlite.corrupt-20261129T080824Z")
        #expect(try Data(contentsOf: aside) == garbage)
        // SQLite itself deletes a WAL it cannot use when the failed connection closes; either
        // way the stale one must not be replayed into the new cache.
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: file.path + "-wal"))) ?? Data()
        #expect(!wal.starts(with: Data("stale wal".utf8)))
        try expectUsable(opened.store)
        opened.store.close()

        // The replacement is a good cache: no notice the next time.
        let again = try CacheStore.open(file: file)
        #expect(again.notice == nil)
        #expect(try again.store.lastSeenSeqs() == ["t": 3])
    }

    @Test func aDatabaseTruncatedAtAPageBoundaryIsMovedAside() throws {
        try writePopulatedCache()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)
            .intValue
        #expect(size > 64 * 4_096)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(size / 2 / 4_096 * 4_096))
        try handle.close()

        let opened = try CacheStore.open(file: file)
        #expect(opened.notice != nil)
        #expect(corruptCopies().count == 1)
        #expect(try opened.store.load(MeshTask.self, from: .taskSnapshots, query: "") == nil)
        try expectUsable(opened.store)
    }

    @Test func aDatabaseCutInsideItsHeaderIsMovedAside() throws {
        try writePopulatedCache()
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 60)
        try handle.close()

        let opened = try CacheStore.open(file: file)
        #expect(opened.notice != nil)
        #expect(corruptCopies().count == 1)
        try expectUsable(opened.store)
    }

    /// Tests run as root, and chmod 000 does not stop root from reading. A directory where the
    /// database file should be makes the open fail for everyone (SQLITE_CANTOPEN).
    @Test func aPathThatCannotBeOpenedIsMovedAside() throws {
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: file.appendingPathComponent("inside"))

        let opened = try CacheStore.open(file: file)
        let notice = try #require(opened.notice)
        #expect(notice.contains("unreadable"))
        let copies = corruptCopies()
        #expect(copies.count == 1)
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(
                atPath: profileDir.appendingPathComponent(copies[0]).path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        try expectUsable(opened.store)
    }

    @Test func aCacheFromANewerBuildIsMovedAside() throws {
        try writePopulatedCache()
        let raw = try SQLiteDatabase(path: file.path)
        try raw.exec("PRAGMA user_version = 99")
        raw.close()

        let opened = try CacheStore.open(file: file)
        #expect(opened.notice?.contains("newer version") == true)
        #expect(corruptCopies().count == 1)
        try expectUsable(opened.store)
    }

    @Test func aVersion2CacheLosesItsUnreadTranscriptTableAndKeepsTheRest() throws {
        try FileManager.default.createDirectory(at: profileDir, withIntermediateDirectories: true)
        let raw = try SQLiteDatabase(path: file.path)
        for step in CacheSchema.migrations.prefix(2) { try raw.exec(step) }
        try raw.exec("PRAGMA user_version = 2")
        try raw.exec("INSERT INTO listen_transcripts (session_id, fetched_at, json) VALUES ('l1', 0, '{}')")
        raw.close()
        let before = try CacheStore.open(file: file)
        #expect(before.notice == nil)
        try before.store.replace(CacheFixtures.daemons, in: .daemons, query: "", fetchedAt: CacheFixtures.t0)
        before.store.close()

        let check = try SQLiteDatabase(path: file.path)
        #expect(try check.scalarInt("PRAGMA user_version") == Int64(CacheSchema.version))
        #expect(
            try check.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'listen_transcripts'") == 0)
        check.close()
        let reopened = try CacheStore.open(file: file)
        #expect(corruptCopies().isEmpty)
        #expect(try reopened.store.load(Daemon.self, from: .daemons, query: "")?.items == CacheFixtures.daemons)
    }

    @Test func anEmptyFileIsAFreshCacheNotDamage() throws {
        try FileManager.default.createDirectory(at: profileDir, withIntermediateDirectories: true)
        try Data().write(to: file)
        let opened = try CacheStore.open(file: file)
        #expect(opened.notice == nil)
        #expect(corruptCopies().isEmpty)
        try expectUsable(opened.store)
    }

    @Test func aDirectoryThatCannotBeCreatedIsAnErrorNotACrash() throws {
        // A plain file where the profile directory should be.
        try Data("in the way".utf8).write(to: profileDir)
        let error = #expect(throws: CacheError.self) { try CacheStore.open(file: file) }
        guard case .cantOpen(let path, _)? = error else {
            Issue.record("expected cantOpen, got \(String(describing: error))")
            return
        }
        #expect(path == profileDir.path)
        #expect(try Data(contentsOf: profileDir) == Data("in the way".utf8))
    }

    @Test func aBusyDatabaseIsNeverMovedAside() throws {
        try writePopulatedCache()
        // Another instance in the middle of a write.
        let other = try SQLiteDatabase(path: file.path)
        try other.exec("BEGIN IMMEDIATE")
        try other.exec("DELETE FROM task_activity WHERE task_id = 'a'")  // its chunks with it

        let opened = try CacheStore.open(file: file)
        #expect(opened.notice == nil)
        #expect(corruptCopies().isEmpty)
        #expect(try opened.store.eventCount(taskID: "a") == 1_500)

        try other.exec("COMMIT")
        #expect(try opened.store.eventCount(taskID: "a") == 0)
    }

    @Test func aFullDiskFailsTheWholeWriteAndReadsStillWork() throws {
        let store = try CacheStore.open(file: file).store
        try store.replace(CacheFixtures.daemons, in: .daemons, query: "", fetchedAt: CacheFixtures.t0)
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...100))
        try store.limitSize(pages: try store.pageCount())

        let appendError = #expect(throws: CacheError.self) {
            try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 101...1_600))
        }
        guard case .diskFull? = appendError else {
            Issue.record("expected diskFull, got \(String(describing: appendError))")
            return
        }
        #expect(appendError?.description.contains("disk full") == true)
        let bigList = (0..<2_000).map {
            Daemon(id: "d\($0)", hostname: String(repeating: "h", count: 200), status: .online)
        }
        let replaceError = #expect(throws: CacheError.self) {
            try store.replace(bigList, in: .daemons, query: "", fetchedAt: CacheFixtures.t0)
        }
        guard case .diskFull? = replaceError else {
            Issue.record("expected diskFull, got \(String(describing: replaceError))")
            return
        }

        // Nothing of either failed write is there; everything before is.
        #expect(try store.lastSeenSeqs() == ["a": 100])
        #expect(try store.events(taskID: "a").map(\.seq) == Array(1...100))
        #expect(try store.load(Daemon.self, from: .daemons, query: "")?.items == CacheFixtures.daemons)
        #expect(store.integrityCheck())

        // Space again: writing resumes on the same store.
        try store.limitSize(pages: 1_000_000)
        #expect(try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 101...1_600)) == 1_500)
        #expect(try store.lastSeenSeqs() == ["a": 1_600])
    }
}

/// The SQLite wrapper names the failures the cache treats specially.
@Suite struct CacheSQLiteErrorTests {
    let dir = CacheTempDir()

    @Test func busyCorruptAndCantOpenAreTold() throws {
        let path = dir.url.appendingPathComponent("db.sqlite").path
        let first = try SQLiteDatabase(path: path)
        try first.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)")
        try first.exec("BEGIN IMMEDIATE")
        let second = try SQLiteDatabase(path: path)
        second.setBusyTimeout(milliseconds: 0)
        let busy = #expect(throws: SQLiteError.self) { try second.exec("BEGIN IMMEDIATE") }
        #expect(busy?.kind == .busy)
        #expect(busy.map { CacheError.from($0, path: path) } == .busy(busy?.message ?? ""))
        try first.exec("ROLLBACK")

        let garbagePath = dir.url.appendingPathComponent("garbage").path
        try Data(repeating: 0x5A, count: 4_096).write(to: URL(fileURLWithPath: garbagePath))
        let garbage = try SQLiteDatabase(path: garbagePath)
        let notADatabase = #expect(throws: SQLiteError.self) { try garbage.exec("SELECT * FROM sqlite_schema") }
        #expect(notADatabase?.kind == .corrupt)
        #expect(notADatabase?.message.contains("not a database") == true)

        let cantOpen = #expect(throws: SQLiteError.self) {
            _ = try SQLiteDatabase(path: dir.url.appendingPathComponent("no/such/dir/db").path)
        }
        #expect(cantOpen?.kind == .cantOpen)
    }

    @Test func textWithQuotesNULsAndNonASCIIBindsExactly() throws {
        let db = try SQLiteDatabase(path: dir.url.appendingPathComponent("bind.sqlite").path)
        try db.exec("CREATE TABLE t (s TEXT)")
        let values = ["", "it's \"quoted\"", "a\u{0}b", "日本語 🎉", String(repeating: "x", count: 100_000)]
        let insert = try db.prepare("INSERT INTO t (s) VALUES (?1)")
        for value in values {
            try insert.bind(value, at: 1)
            try insert.step()
            insert.reset()
        }
        let select = try db.prepare("SELECT s, typeof(s) FROM t ORDER BY rowid")
        var read: [String] = []
        while try select.step() {
            #expect(select.text(1) == "text")
            read.append(select.text(0) ?? "<null>")
        }
        #expect(read == values)
    }
}
