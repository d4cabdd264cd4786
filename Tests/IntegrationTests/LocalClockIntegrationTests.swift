import Foundation
import Synchronization
import TestSupport
import Testing

@testable import MakimaKit

/// Against the dev server on another clock (`--clock-offset`): the client measures the offset
/// from the `Date` headers, and live output and failures count in the current hour and minute
/// of the activity history, in the engine's cache and in `status --json`.
@Suite(.serialized, .timeLimit(.minutes(4))) struct LocalClockIntegrationTests {
    @Test(arguments: [-3_600.0, 2 * 86_400.0])
    func liveActivityCountsNowWhateverTheServersClock(offset: TimeInterval) throws {
        let server = try DevServer(seed: 21, rate: 0, extra: ["--clock-offset", String(offset)])
        let dir = TempDirectory()
        let cache = try CacheStore.open(file: URL(fileURLWithPath: dir.sub("cache.sqlite"))).store
        let client = try server.client()
        _ = try client.sendBlocking(.get, ["mesh", "daemons"])
        #expect(abs(client.serverClock.offset.seconds - offset) <= 2, "measured \(client.serverClock.offset)")

        let rec = OutboxRecorder()
        defer { rec.stop() }
        let engine = try SyncEngine(
            client: client, apiKey: server.apiKey, cache: cache, outbox: rec.outbox, options: fastReconnect())
        engine.start()
        defer { engine.stop() }
        #expect(rec.waitUntil(30) { rec.onlineCount >= 1 })
        let task = try server.controlJSON(path: "/_dev/task", query: ["status": "running"])["id"] as! String
        _ = try server.control(path: "/_dev/burst", query: ["task_id": task, "count": "30"])
        _ = try server.control(path: "/_dev/task/\(task)/status", query: ["status": "failed"])
        #expect(rec.waitUntil(30) { rec.events(task).contains { $0.type == .status && $0.seq > 1 } })
        engine.flushCache()
        let history = try cache.activity(now: Date())
        #expect(history.lastHour.output >= 30, "\(history.minutes)")
        #expect(history.lastHour.failed >= 1, "\(history.minutes)")
        #expect(
            history.outputPerMinute().suffix(2).reduce(0, +) >= 30, "output in the current minute or the one before")
        #expect(history.finishedPerHour().failed.last ?? 0 >= 1)
    }

    @Test func statusJSONLastHourCountsWhatWatchSawLive() async throws {
        let server = try DevServer(seed: 22, rate: 0, extra: ["--clock-offset", "-3600"])
        let watch = try WatchProcess(server: server)
        // A failure before watch subscribed is not live for it: one every two seconds until
        // watch prints one.
        let deadline = Date().addingTimeInterval(150)
        while !watch.shows("Task failed") && Date() < deadline && watch.isRunning {
            try server.control(path: "/_dev/task", query: ["title": "late clock", "status": "failed"])
            for _ in 0..<10 where !watch.shows("Task failed") {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        watch.stop()
        #expect(watch.shows("Task failed"), "stderr: \(watch.errors)")
        let r = try CLIRunner.run(["status", "--json"], environment: watch.environment, home: watch.dir.path)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let got = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let lastHour = try #require(got["last_hour"] as? [String: Any], "\(r.stdout)")
        #expect((lastHour["tasks_failed"] as? Int ?? 0) >= 1, "\(r.stdout)")
    }
}
