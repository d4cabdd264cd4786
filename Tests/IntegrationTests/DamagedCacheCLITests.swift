import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// The built `makima-tui` against a cache damaged behind its back: values no build writes in
/// the activity counts (which once ended `status --json` with "arithmetic overflow", exit 132,
/// at every run), and pages damaged in a sealed file (which once failed `grep` with "database
/// is damaged", exit 6, at every run, since the clean close sealed the file again).
@Suite(.serialized, .timeLimit(.minutes(2))) struct DamagedCacheCLITests {
    private func cache(_ server: DevServer, _ s: CLITests.Session) throws -> CacheStore {
        let key = CacheLocation.profileKey(serverURL: try server.profile().baseURL.absoluteString)
        return try CacheStore.open(profileKey: key, environment: ["HOME": s.dir.path]).store
    }

    @Test func statusJSONReadsOverflowingActivityCountsAsSaneNumbers() throws {
        let server = try DevServer(seed: 3)
        let s = CLITests.Session()
        #expect(try s.login(server).status == 0)
        let store = try cache(server, s)
        let file = store.file
        store.close()
        let minute = ActivityMinute.minute(of: Date())
        let raw = try SQLiteDatabase(path: file.path)
        try raw.exec(
            """
            INSERT INTO activity_minutes (minute, output, completed, failed) VALUES
                (\(minute - 1), 9223372036854775807, 9223372036854775807, -9223372036854775808),
                (\(minute - 2), 9223372036854775807, 'text', 1.5e300),
                (\(minute - 3), 4, 1, 1);
            """)
        raw.close()
        for _ in 0..<2 {
            let r = try s.run(["status", "--json"])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let got = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let hour = try #require(got["last_hour"] as? [String: Any])
            // A count that is not a whole number in range reads as 0; the sane minute counts.
            #expect(hour["output_events"] as? Int == 4, "\(hour)")
            #expect(hour["tasks_completed"] as? Int == 1 && hour["tasks_failed"] as? Int == 1, "\(hour)")
        }
    }

    @Test func grepOnADamagedSealedCacheRecoversOnceAndStaysRecovered() throws {
        let server = try DevServer(seed: 11)
        let s = CLITests.Session()
        #expect(try s.login(server).status == 0)
        let store = try cache(server, s)
        try store.appendEvents(
            (1...300).map {
                TaskEvent(
                    eventID: Int64($0), taskID: "t\($0 % 5)", seq: $0 / 5 + 1, type: .output,
                    payload: .output(text: "damaged line \($0)\n", stream: "tool"))
            })
        #expect(try store.searchOutput("damaged line 1").count > 0)
        let pages = try store.pages(of: ["task_chunks", "output_search_data"])
        store.close()
        let path = store.file.path
        #expect(FileManager.default.fileExists(atPath: path + ".sealed"))
        #expect(try FileDamage.overwrite(pages: pages, of: path))

        let first = try s.run(["grep", "damaged line"])
        #expect(first.status == 1, "a fresh cache holds nothing: stderr \(first.stderr)")
        #expect(first.stderr.components(separatedBy: "moved to cache.sqlite.corrupt-").count == 2, "\(first.stderr)")
        #expect(!first.stderr.contains("database is damaged"))
        let second = try s.run(["grep", "damaged line"])
        #expect(second.status == 1)
        #expect(second.stderr.isEmpty, "said once: \(second.stderr)")
        let dir = store.file.deletingLastPathComponent().path
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".corrupt-") }
        #expect(aside.contains { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        #expect(s.neverPrinted(server.apiKey.secret))
    }

    /// `watch` keeps its cache open for as long as it runs: damage found on it (here the
    /// mark a connection leaves) has it start its engine again on a fresh cache, and say so
    /// once, instead of writing into a damaged file until it is stopped.
    @Test func watchStartsAgainOnAFreshCacheWhenItsCacheIsFoundDamaged() async throws {
        let server = try DevServer()
        let watch = try WatchProcess(server: server)
        defer { if watch.isRunning { watch.stop() } }
        let file = CacheLocation.databaseFile(
            profileKey: CacheLocation.profileKey(serverURL: try server.profile().baseURL.absoluteString),
            environment: ["MAKIMA_CACHE_DIR": watch.dir.sub("cache")])
        /// Waits for a condition the child makes true, up to a generous deadline (a loaded
        /// machine), checking every 100 ms.
        func waitFor(_ condition: () -> Bool) async throws -> Bool {
            let deadline = Date().addingTimeInterval(90)
            while !condition() && Date() < deadline && watch.isRunning {
                try await Task.sleep(for: .milliseconds(100))
            }
            return condition()
        }
        #expect(try await waitFor { FileManager.default.fileExists(atPath: file.path) })
        try Data("database disk image is malformed".utf8).write(to: URL(fileURLWithPath: file.path + ".damaged"))
        let replaced = try await waitFor { watch.errors.contains("moved to cache.sqlite.corrupt-") }
        #expect(replaced, "stderr: \(watch.errors)")
        watch.stop()
        #expect(watch.process.terminationStatus == 0, "stderr: \(watch.errors)")
        #expect(watch.errors.components(separatedBy: "moved to cache.sqlite.corrupt-").count == 2, "\(watch.errors)")
        #expect(!FileManager.default.fileExists(atPath: file.path + ".damaged"))
        let aside = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(aside.contains { $0.hasPrefix("cache.sqlite.corrupt-") }, "\(aside)")
    }
}
