import Foundation
import Testing

@testable import MakimaKit

/// The cache's files are not taken on trust: links are not followed, directories others can
/// write are tightened (or refused when not ours), and instances starting together agree on
/// the schema.
@Suite struct CacheSafetyTests {
    let dir = CacheTempDir()
    var file: URL { dir.databaseFile }
    var profileDir: URL { file.deletingLastPathComponent() }

    private func mode(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & 0o777 : 0
    }

    @Test func aDanglingDatabaseLinkIsRefusedNotFollowed() throws {
        try FileManager.default.createDirectory(at: profileDir, withIntermediateDirectories: true)
        let target = dir.url.appendingPathComponent("elsewhere.sqlite").path
        #expect(symlink(target, file.path) == 0)
        #expect(throws: CacheError.self) { _ = try CacheStore.open(file: file) }
        #expect(!FileManager.default.fileExists(atPath: target))
        // The link is left where it was: nothing is moved aside or replaced behind it.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == target)
    }

    @Test func aLinkedWriteAheadLogIsRefused() throws {
        try FileManager.default.createDirectory(at: profileDir, withIntermediateDirectories: true)
        let target = dir.url.appendingPathComponent("elsewhere-wal").path
        #expect(symlink(target, file.path + "-wal") == 0)
        #expect(throws: CacheError.self) { _ = try CacheStore.open(file: file) }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func aLinkToARealDatabaseIsRefusedToo() throws {
        let real = dir.url.appendingPathComponent("real.sqlite")
        try CacheStore.open(file: real).store.close()
        try FileManager.default.createDirectory(at: profileDir, withIntermediateDirectories: true)
        #expect(symlink(real.path, file.path) == 0)
        #expect(throws: CacheError.self) { _ = try CacheStore.open(file: file) }
    }

    @Test func worldWritableCacheDirectoriesAreTightened() throws {
        let root = dir.url.appendingPathComponent("makima-tui")
        let profile = root.appendingPathComponent("p1")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        #expect(chmod(root.path, 0o777) == 0)
        #expect(chmod(profile.path, 0o777) == 0)
        let opened = try CacheStore.open(profileKey: "p1", environment: dir.environment)
        defer { opened.store.close() }
        #expect(opened.store.file.path == profile.appendingPathComponent("cache.sqlite").path)
        #expect(mode(root.path) == 0o700)
        #expect(mode(profile.path) == 0o700)
        #expect(mode(opened.store.file.path) == 0o600)
    }

    @Test func aLinkedProfileDirectoryIsRefused() throws {
        let root = dir.url.appendingPathComponent("makima-tui")
        let elsewhere = dir.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        #expect(symlink(elsewhere.path, root.appendingPathComponent("p1").path) == 0)
        #expect(throws: CacheError.self) { _ = try CacheStore.open(profileKey: "p1", environment: dir.environment) }
        #expect(dir.entries(in: elsewhere).isEmpty)
    }

    /// Instances started together on a cache that does not exist yet: every one gets a
    /// working cache (the schema is read and written inside one write transaction).
    /// The six queue on one write lock; on a loaded machine the last can wait longer than the
    /// app's 5 s busy timeout (then it says "database is locked", which is not what this test is
    /// about), so here the lock is waited for up to two minutes.
    @Test func firstTimeInstancesRacingOnTheSchemaAllGetACache() throws {
        for round in 0..<6 {
            let file = dir.url.appendingPathComponent("race-\(round)").appendingPathComponent("cache.sqlite")
            let results = Locked([Result<String?, CacheError>]())
            let start = DispatchGroup()
            start.enter()
            let done = DispatchGroup()
            for _ in 0..<6 {
                done.enter()
                Thread.detachNewThread {
                    start.wait()
                    let r: Result<String?, CacheError>
                    do throws(CacheError) {
                        let opened = try CacheStore.open(file: file, busyTimeoutMilliseconds: 120_000)
                        r = .success(opened.notice)
                        opened.store.close()
                    } catch { r = .failure(error) }
                    results.withLock { $0.append(r) }
                    done.leave()
                }
            }
            start.leave()
            #expect(done.wait(timeout: .now() + 600) == .success)
            for r in results.withLock({ $0 }) {
                switch r {
                case .success(let notice): #expect(notice == nil, "round \(round): \(notice ?? "")")
                case .failure(let e): Issue.record("round \(round): \(e)")
                }
            }
        }
    }
}
