import Foundation
import MakimaKit
import MakimaTUI

/// The sync engine measured against a dev server: a burst through WebSocket → pipeline →
/// stores (on the main actor) and the SQLite cache, and the CPU an idle connected engine uses.
package enum SyncBenchmark {
    /// One burst, timed from asking the dev server to send it (prepared and pre-encoded before
    /// the clock starts, see `/_dev/burst_prepare`) to every event in the stores and the cache.
    /// The same measurement as `scripts/bench_ws_client.py`, the bare client it is compared to.
    /// With `shown`, that pane is on screen through the burst (`BurstWatcher`): the full path,
    /// engine and UI thread, CPU of the whole process; Home open is the task view's baseline.
    package static func ingest(
        client: APIClient, key: APIKey, events: Int, tasks: Int, shown: Shown = .nothing
    ) async throws -> [String: Double] {
        try await Run.withNewCache(client: client, key: key) { run in
            let cpu0 = processCPUSeconds()
            let (storeTime, total, _, frames) = try await run.burst(events: events, tasks: tasks, shown: shown)
            return [
                "events": Double(events), "seconds_to_stores": storeTime, "seconds_to_cache": total,
                "events_per_second": Double(events) / total, "cpu_seconds": processCPUSeconds() - cpu0,
                "frames": Double(frames), "lines_indexed": Double(try run.cache.searchIndexCount()),
            ]
        }
    }

    /// What is on screen through an ingest burst.
    package enum Shown {
        case nothing, home, taskView
    }

    /// Resident memory through `events` events over `tasks` tasks (in bursts of 100,000), with
    /// the stores and the cache as the dashboard holds them: RSS at the start, at the half and
    /// at the end, and the growth over the second half.
    package static func memory(client: APIClient, key: APIKey, events: Int, tasks: Int) async throws -> [String: Double]
    {
        try await Run.withNewCache(client: client, key: key) { run in
            let start = residentMB()
            var half = start
            var sent = 0
            let chunk = 100_000
            var taskIDs: [String] = []
            while sent < events {
                let n = min(chunk, events - sent)
                taskIDs = try await run.burst(events: n, tasks: tasks, taskIDs: taskIDs).taskIDs
                sent += n
                if sent <= events / 2 { half = residentMB() }
            }
            let end = residentMB()
            let cacheMB =
                Double((try? FileManager.default.attributesOfItem(atPath: run.cache.file.path)[.size] as? Int) ?? 0)
                / 1e6
            return [
                "events": Double(events), "tasks": Double(tasks), "rss_start_mb": start, "rss_half_mb": half,
                "rss_end_mb": end, "growth_second_half_pct": (end - half) / half * 100,
                "output_buffers_held": Double(await MainActor.run { run.hub.tasks.outputs.count }),
                "cache_file_mb": cacheMB,
            ]
        }
    }

    /// An engine with a cache and the stores, connected and resynced.
    private struct Run {
        let client: APIClient
        let outbox: SyncOutbox
        let engine: SyncEngine
        let hub: StoreHub
        let cache: CacheStore

        /// `body` with a run on a cache of its own in a temporary directory, removed after.
        static func withNewCache<T>(
            client: APIClient, key: APIKey, _ body: (Run) async throws -> T
        ) async throws -> T {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("makima-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let cache = try CacheStore.open(file: dir.appendingPathComponent("cache.sqlite")).store
            let run = try await Run.start(client: client, key: key, cache: cache)
            defer { run.engine.stop() }
            return try await body(run)
        }

        static func start(client: APIClient, key: APIKey, cache: CacheStore) async throws -> Run {
            let outbox = SyncOutbox()
            let engine = try SyncEngine(client: client, apiKey: key, cache: cache, outbox: outbox)
            let hub = await MainActor.run { StoreHub() }
            engine.start()
            try await waitOnline(outbox)
            return Run(client: client, outbox: outbox, engine: engine, hub: hub, cache: cache)
        }

        /// Seconds from asking for the burst to all of it in the stores, and to all of it cached:
        /// assembled into lines and those lines in the search index.
        func burst(events: Int, tasks: Int, taskIDs reuse: [String] = [], shown: Shown = .nothing) async throws -> (
            stores: Double, cache: Double, taskIDs: [String], frames: Int
        ) {
            let client = self.client
            let outbox = self.outbox
            let hub = self.hub
            // `count` is the events written: more than the texts asked for when the server cuts
            // output into pieces.
            let (burstID, taskIDs, outputEvents) = try await onDedicatedThread("bench-prepare") {
                let prepared = try devControl(
                    client, "burst_prepare",
                    ["count": String(events), "tasks": String(tasks), "task_ids": reuse.joined(separator: ",")])
                return (
                    prepared["burst_id"] as? String ?? "", prepared["task_ids"] as? [String] ?? [],
                    prepared["count"] as? Int ?? events
                )
            }
            let ids = Set(taskIDs)
            // The dashboard with the first task's output on screen.
            if let first = taskIDs.first { await MainActor.run { hub.tasks.keepOutput(of: first) } }
            let watcher: BurstWatcher? =
                switch (shown, taskIDs.first) {
                case (.taskView, let first?):
                    try await MainActor.run { try BurstWatcher.taskView(hub: hub, taskID: first) }
                case (.home, _): try await MainActor.run { try BurstWatcher.home(hub: hub) }
                default: nil
                }
            // Events queued before the clock starts (the tasks' creation) are applied first.
            for u in outbox.drain() { await MainActor.run { hub.apply(u) } }
            let start = Date()
            try await onDedicatedThread("bench-send") {
                _ = try devControl(client, "burst_send", ["burst_id": burstID])
            }
            var applied = 0
            while applied < outputEvents {
                let updates = try await onDedicatedThread("bench-drain") {
                    outbox.wait(until: Date().addingTimeInterval(30))
                }
                if updates.isEmpty { throw BenchError("stalled after \(applied) of \(outputEvents) events") }
                applied += await MainActor.run {
                    let n = Self.outputEvents(in: updates, of: ids)
                    for u in updates { hub.apply(u) }
                    watcher?.applied(updates)
                    return n
                }
            }
            let frames = await MainActor.run {
                watcher?.finish()
                return watcher?.frames ?? 0
            }
            let stores = Date().timeIntervalSince(start)
            engine.flushCache()
            try cache.indexPendingLines()
            return (stores, Date().timeIntervalSince(start), taskIDs, frames)
        }

        /// The output events of the burst's tasks among `updates`: by index, the type only
        /// (copying each event to look at it cost the loop more than counting). A burst is
        /// mostly one task's: one set lookup per change of task.
        static func outputEvents(in updates: [SyncUpdate], of ids: Set<String>) -> Int {
            var n = 0
            var lastMatch = ""
            for u in updates {
                guard case .events(let list) = u else { continue }
                for i in list.indices where list[i].type == .output {
                    guard list[i].taskID == lastMatch || ids.contains(list[i].taskID) else { continue }
                    lastMatch = list[i].taskID
                    n += 1
                }
            }
            return n
        }
    }

    package static func idle(client: APIClient, key: APIKey, seconds: Double) async throws -> [String: Double] {
        let outbox = SyncOutbox()
        let engine = try SyncEngine(client: client, apiKey: key, cache: nil, outbox: outbox)
        engine.start()
        defer { engine.stop() }
        try await waitOnline(outbox)
        let cpu0 = processCPUSeconds()
        try await onDedicatedThread("bench-idle") { Thread.sleep(forTimeInterval: seconds) }
        return [
            "seconds": seconds, "cpu_seconds": processCPUSeconds() - cpu0,
            "pings_sent": Double(engine.connectionStats.connections.pingsSent),
        ]
    }

    static func residentMB() -> Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    fileprivate static func waitOnline(_ outbox: SyncOutbox) async throws {
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
    fileprivate static func devControl(_ client: APIClient, _ path: String, _ query: [String: String]) throws
        -> [String:
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

    fileprivate static func processCPUSeconds() -> Double {
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
