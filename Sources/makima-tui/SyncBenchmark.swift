import Foundation
import MakimaKit

/// The sync engine measured against a dev server: a burst through WebSocket → pipeline →
/// stores (on the main actor) and the SQLite cache, and the CPU an idle connected engine uses.
enum SyncBenchmark {
    static func burst(client: APIClient, key: APIKey, events: Int) async throws -> [String: Double] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("makima-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = try CacheStore.open(file: dir.appendingPathComponent("cache.sqlite")).store
        let outbox = SyncOutbox()
        let engine = try SyncEngine(client: client, apiKey: key, cache: cache, outbox: outbox)
        engine.start()
        defer { engine.stop() }
        try await waitOnline(outbox)
        let task = try devControl(client, "task", ["status": "running"])["id"] as? String ?? ""
        let hub = await MainActor.run { StoreHub() }
        let cpu0 = processCPUSeconds()
        let start = Date()
        try await onDedicatedThread("bench-burst") {
            _ = try devControl(client, "burst", ["task_id": task, "count": String(events)])
        }
        var applied = 0
        while applied < events {
            let updates = try await onDedicatedThread("bench-drain") {
                outbox.wait(until: Date().addingTimeInterval(30))
            }
            if updates.isEmpty { throw BenchError("stalled after \(applied) of \(events) events") }
            applied += await MainActor.run {
                var n = 0
                for u in updates {
                    if case .events(let list) = u { n += list.filter { $0.taskID == task }.count }
                    hub.apply(u)
                }
                return n
            }
        }
        let storeTime = Date().timeIntervalSince(start)
        engine.flushCache()
        let total = Date().timeIntervalSince(start)
        let lines = await MainActor.run { hub.tasks.outputs[task]?.lineCount ?? 0 }
        return [
            "events": Double(events), "seconds_to_stores": storeTime, "seconds_to_cache": total,
            "events_per_second": Double(events) / total, "cpu_seconds": processCPUSeconds() - cpu0,
            "buffer_lines_kept": Double(lines), "cached_events_kept": Double(try cache.eventCount(taskID: task)),
        ]
    }

    static func idle(client: APIClient, key: APIKey, seconds: Double) async throws -> [String: Double] {
        let outbox = SyncOutbox()
        let engine = try SyncEngine(client: client, apiKey: key, cache: nil, outbox: outbox)
        engine.start()
        defer { engine.stop() }
        try await waitOnline(outbox)
        let cpu0 = processCPUSeconds()
        try await onDedicatedThread("bench-idle") { Thread.sleep(forTimeInterval: seconds) }
        return [
            "seconds": seconds, "cpu_seconds": processCPUSeconds() - cpu0,
            "pings_sent": Double(engine.connectionStats.pingsSent),
        ]
    }

    private static func waitOnline(_ outbox: SyncOutbox) async throws {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let updates = try await onDedicatedThread("bench-wait") { outbox.wait(until: Date().addingTimeInterval(1)) }
            if updates.contains(where: { if case .connection(let s) = $0 { return s.isOnline } else { return false } })
            {
                return
            }
        }
        throw BenchError("the WebSocket did not come online")
    }

    /// `POST /_dev/<path>` on the dev server (started with --test-controls).
    private static func devControl(_ client: APIClient, _ path: String, _ query: [String: String]) throws -> [String:
        Any]
    {
        var url = URLComponents(
            url: client.profile.baseURL.appendingPathComponent("_dev/" + path), resolvingAgainstBaseURL: false)!
        url.queryItems = query.map { URLQueryItem(name: $0.key, value: $0.value) }
        let response = try HTTPTransport(configuration: HTTPConfiguration(totalTimeout: .seconds(300))).perform(
            HTTPRequest(method: .post, url: url.url!))
        guard response.status == 200, let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else {
            throw BenchError(
                "dev control /_dev/\(path) answered \(response.status) (start the dev server with --test-controls)")
        }
        return json
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
