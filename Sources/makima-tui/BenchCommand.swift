import Foundation
import MakimaBench
import MakimaKit
import MakimaTUI

/// `makima-tui bench [render|cache|grep|scale|task-ingest|ingest|memory|idle]`: prints figures, never pass/fail.
/// `ingest`, `memory` and `idle` need a dev server started with `--test-controls` (`MAKIMA_SERVER_URL`); `make bench`
/// starts one.
enum BenchCommand {
    static let kinds = ["render", "cache", "cache-stream", "grep", "scale", "task-ingest", "ingest", "memory", "idle"]
    static let spec = CommandSpec(
        name: "bench",
        summary:
            "benchmarks: render, cache, cache-stream, grep, scale, task-ingest; ingest, memory, idle (these need a dev server)",
        flags: [
            FlagSpec(
                "--events", value: "N", help: "events: ingest burst (default 100000), memory run (default 1000000)"),
            FlagSpec(
                "--tasks", value: "N",
                help: "tasks the events are spread over (ingest 1, memory 50); scale: tasks (10000)"),
            FlagSpec("--daemons", value: "N", help: "scale: daemons in the generated mesh (default 500)"),
            FlagSpec("--lines", value: "N", help: "grep: cached output lines searched (default 1000000)"),
            FlagSpec(
                "--seconds", value: "S", help: "length of the idle measurement (default 60), cache-stream's (60)"),
            FlagSpec("--rate", value: "N", help: "cache-stream: events a second (default 1000)"),
            FlagSpec(
                "--index-interval", value: "S",
                help: "cache-stream: seconds between the search index's catch-ups (default: the cache's own)"),
            FlagSpec("--task-view", help: "ingest: with the first task's output view on screen (engine + UI thread)"),
            FlagSpec("--home", help: "ingest: with Home on screen (engine + UI thread), the task view's baseline"),
        ],
        positionals: "[" + kinds.joined(separator: "|") + "]", positionalValues: .words(kinds), run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        let which = inv.positionals.isEmpty ? ["render", "cache"] : inv.positionals
        for name in which {
            switch name {
            case "render": print(figures: await MainActor.run { RenderBenchmark.run() }, prefix: "render")
            case "cache": print(figures: CacheBenchmark.run(), prefix: "cache")
            case "cache-stream":
                let rate = min(max(Int(inv.values["--rate"] ?? "") ?? 1_000, 100), 100_000)
                let seconds = min(max(Double(inv.values["--seconds"] ?? "") ?? 60, 1), 3_600)
                let tasks = min(max(Int(inv.values["--tasks"] ?? "") ?? 20, 1), 1_000)
                let interval = (inv.values["--index-interval"]).flatMap(Double.init).map { min(max($0, 0), 3_600) }
                print(
                    figures: CacheStreamBenchmark.run(
                        rate: rate, seconds: seconds, tasks: tasks, indexInterval: interval),
                    prefix: "cache_stream")
            case "grep":
                let lines = min(max(Int(inv.values["--lines"] ?? "") ?? 1_000_000, 2_000), 10_000_000)
                print(figures: OutputSearchBenchmark.run(lines: lines), prefix: "grep")
            case "scale":
                let tasks = min(max(Int(inv.values["--tasks"] ?? "") ?? 10_000, 0), 1_000_000)
                let daemons = min(max(Int(inv.values["--daemons"] ?? "") ?? 500, 0), 100_000)
                print(
                    figures: await MainActor.run { ScaleBenchmark.run(tasks: tasks, daemons: daemons) }, prefix: "scale"
                )
            case "task-ingest":
                let events = Int(inv.values["--events"] ?? "") ?? 100_000
                print(
                    figures: await MainActor.run { TaskViewIngestBenchmark.run(events: events) }, prefix: "task_ingest")
            case "ingest", "memory", "idle":
                do {
                    let (client, key) = try Session.credentials(inv.global)
                    let events = Int(inv.values["--events"] ?? "")
                    let tasks = Int(inv.values["--tasks"] ?? "")
                    let figures: [String: Double]
                    switch name {
                    case "ingest":
                        figures = try await SyncBenchmark.ingest(
                            client: client, key: key, events: events ?? 100_000, tasks: tasks ?? 1,
                            shown: inv.switches.contains("--task-view")
                                ? .taskView : inv.switches.contains("--home") ? .home : .nothing)
                    case "memory":
                        figures = try await SyncBenchmark.memory(
                            client: client, key: key, events: events ?? 1_000_000, tasks: tasks ?? 50)
                    default:
                        figures = try await SyncBenchmark.idle(
                            client: client, key: key, seconds: Double(inv.values["--seconds"] ?? "") ?? 60)
                    }
                    print(figures: figures, prefix: name)
                } catch {
                    return Console.fail(error)
                }
            default:
                return Console.fail(
                    UsageError("unknown benchmark '\(name)' (render, cache, scale, task-ingest, ingest, memory, idle)"))
            }
        }
        return ExitCode.ok.rawValue
    }

    private static func print(figures: [String: Double], prefix: String) {
        for (k, v) in figures.sorted(by: { $0.key < $1.key }) {
            Console.out(
                "\(prefix).\(k) \(v.rounded() == v && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.3f", v))")
        }
    }
}
