import Foundation
import MakimaKit
import MakimaTUI

/// `makima-tui bench [render|cache|sync|idle]`: prints figures, never pass/fail. `sync` and
/// `idle` need a dev server started with `--test-controls` (`MAKIMA_SERVER_URL`); `make bench`
/// starts one.
enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench", summary: "benchmarks: render, cache, sync (needs a dev server), idle (needs a dev server)",
        flags: [
            FlagSpec("--events", value: "N", help: "events in the sync burst (default 100000)"),
            FlagSpec("--seconds", value: "S", help: "length of the idle measurement (default 60)"),
        ],
        positionals: "[render|cache|sync|idle]", run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        let which = inv.positionals.isEmpty ? ["render", "cache"] : inv.positionals
        for name in which {
            switch name {
            case "render": print(figures: await MainActor.run { RenderBenchmark.run() }, prefix: "render")
            case "cache": print(figures: CacheBenchmark.run(), prefix: "cache")
            case "sync", "idle":
                do {
                    let (client, key) = try Session.credentials(inv.global)
                    let figures =
                        name == "sync"
                        ? try await SyncBenchmark.burst(
                            client: client, key: key, events: Int(inv.values["--events"] ?? "") ?? 100_000)
                        : try await SyncBenchmark.idle(
                            client: client, key: key, seconds: Double(inv.values["--seconds"] ?? "") ?? 60)
                    print(figures: figures, prefix: name)
                } catch {
                    return Console.fail(error)
                }
            default:
                return Console.fail(UsageError("unknown benchmark '\(name)' (render, cache, sync, idle)"))
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
