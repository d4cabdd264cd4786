import Foundation
import MakimaKit

/// Figures for `make bench` (not a test): `:grep` over a cache holding `lines` output lines
/// (2,000 per task, the most the cache keeps of a task), written through `appendEvents` as the
/// engine writes them, beside a plain `LIKE` scan of the same events in the same run. The
/// cache's size cap is lifted for the run: the default 64 MiB holds far fewer lines.
package enum OutputSearchBenchmark {
    /// The pattern found in a few lines (one in 50,000), and one found in every line.
    static let rare = "needle-quartz"
    static let common = "swift"

    /// Keys: `lines`, `fill_seconds`, `db_bytes`, `index_rows`; per query (`rare`, `common`,
    /// `short`: two characters, a scan), `<q>_ms` (median of `rounds`) and `<q>_hits`;
    /// `like_rare_ms` (the baseline: `LIKE` over the cached lines); `error` = 1 on failure.
    package static func run(lines: Int = 1_000_000, rounds: Int = 5) -> [String: Double] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "makima-grep-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(CacheLocation.fileName)
        let perTask = 2_000
        let tasks = max(1, lines / perTask)
        var figures: [String: Double] = ["lines": Double(tasks * perTask)]
        do {
            let retention = CacheRetention(eventsPerTask: perTask, finishedTaskAge: 365 * 86_400, maxBytes: 64 << 30)
            let store = try CacheStore.open(file: file, retention: retention).store
            defer { store.close() }
            let start = DispatchTime.now()
            for t in 0..<tasks { try store.appendEvents(events(task: t, count: perTask)) }
            figures["fill_seconds"] = seconds(since: start)
            figures["db_bytes"] = Double(try store.usedBytes())
            for (name, pattern) in [("rare", rare), ("common", common), ("short", "qz")] {
                var times: [Double] = []
                var hits = 0
                for _ in 0..<rounds {
                    let t0 = DispatchTime.now()
                    hits = try store.searchOutput(pattern).count
                    times.append(seconds(since: t0) * 1_000)
                }
                figures["\(name)_ms"] = median(times)
                figures["\(name)_hits"] = Double(hits)
            }
            // After the searches: the first one caught the index up with the last appends.
            figures["index_rows"] = Double(try store.searchIndexCount())
            var like: [Double] = []
            for _ in 0..<rounds {
                let t0 = DispatchTime.now()
                _ = try store.scanOutputWithoutIndex(rare)
                like.append(seconds(since: t0) * 1_000)
            }
            figures["like_rare_ms"] = median(like)
        } catch {
            figures["error"] = 1
        }
        return figures
    }

    /// One task's lines: varied words and paths, the rare pattern in one line of 50,000.
    static func events(task: Int, count: Int) -> [TaskEvent] {
        let words = ["reading", "updating", "testing", "building", "linking", "parsing", "caching", "drawing"]
        return (1...count).map { seq in
            let i = task * count + seq
            var text =
                "step \(seq) \(words[i % words.count]) Sources/Module\(i % 13)/File\(i % 101).swift (\(String(i, radix: 16)))"
            if i % 50_000 == 17 { text += " " + rare }
            return TaskEvent(
                eventID: Int64(i), taskID: "grep-task-\(task)", seq: seq, type: .output,
                payload: .output(text: text + "\n", stream: "assistant"))
        }
    }

    private static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.isEmpty ? 0 : s[s.count / 2]
    }

    private static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
