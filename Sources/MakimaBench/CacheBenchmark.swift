import Foundation
import MakimaKit

/// Figures for `make bench` (not a test): appends a burst of output events in batches, the way
/// the sync engine's writer thread does, into a fresh cache in a temporary directory.
package enum CacheBenchmark {
    /// Keys: `events`, `batch_size`, `tasks`, `append_seconds`, `events_per_second`,
    /// `db_bytes` and `wal_bytes` (file sizes after the run), `kept_events`, `reopen_ms` (open
    /// with its quick_check), `latest_2000_ms` (one task's newest 2000 events, decoded),
    /// `last_seen_ms`, `contiguous_seqs_ms`; `error` = 1 if the cache failed.
    package static func run(events count: Int = 100_000, batchSize: Int = 1_000, tasks: Int = 4) -> [String: Double] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "makima-cache-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(CacheLocation.fileName)
        var figures: [String: Double] = [
            "events": Double(count), "batch_size": Double(batchSize), "tasks": Double(tasks),
        ]
        do {
            let store = try CacheStore.open(file: file).store
            let burst = sampleEvents(count: count, tasks: tasks)
            let start = DispatchTime.now()
            var index = 0
            while index < burst.count {
                let end = min(index + batchSize, burst.count)
                try store.appendEvents(Array(burst[index..<end]))
                index = end
            }
            let seconds = elapsed(since: start)
            figures["append_seconds"] = seconds
            figures["events_per_second"] = Double(count) / seconds
            figures["kept_events"] = Double(
                try (0..<tasks).reduce(0) { $0 + (try store.eventCount(taskID: "bench-task-\($1)")) })
            figures["db_bytes"] = Double(fileSize(file.path))
            figures["wal_bytes"] = Double(fileSize(file.path + "-wal"))
            store.close()

            let reopenStart = DispatchTime.now()
            let reopened = try CacheStore.open(file: file).store
            figures["reopen_ms"] = elapsed(since: reopenStart) * 1_000
            let loadStart = DispatchTime.now()
            _ = try reopened.latestEvents(taskID: "bench-task-0", limit: 2_000)
            figures["latest_2000_ms"] = elapsed(since: loadStart) * 1_000
            let seenStart = DispatchTime.now()
            _ = try reopened.lastSeenSeqs()
            figures["last_seen_ms"] = elapsed(since: seenStart) * 1_000
            let contiguousStart = DispatchTime.now()
            _ = try reopened.contiguousSeqs()
            figures["contiguous_seqs_ms"] = elapsed(since: contiguousStart) * 1_000
            reopened.close()
        } catch {
            figures["error"] = 1
        }
        return figures
    }

    /// Output chunks of a typical size (a line or two of markdown, some with colour codes),
    /// interleaved across tasks as a busy mesh sends them.
    static func sampleEvents(count: Int, tasks: Int) -> [TaskEvent] {
        let base = Date(timeIntervalSince1970: 1_795_939_704)
        return InterleavedOutput.events(
            count: count, tasks: tasks, taskID: { "bench-task-\($0)" },
            time: { base.addingTimeInterval(Double($0) / 1_000) },
            text: { i in
                i % 7 == 0
                    ? "\u{1B}[32mPASS\u{1B}[0m test_\(i) in \(i % 97) ms\n"
                    : "Working on step \(i): reading `Sources/Module\(i % 13)/File.swift` and updating the plan.\n"
            })
    }

    private static func elapsed(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
