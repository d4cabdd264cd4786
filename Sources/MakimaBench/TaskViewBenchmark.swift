import Glibc
import MakimaKit
@_spi(Fuzzing) import MakimaTUI

/// Figures for the task view: a 200×50 frame of a task holding 2,000 lines of mixed markdown,
/// code, tool output and cards (median and p99), and the cost of taking in one more chunk.
enum TaskViewBenchmark {
    /// Milliseconds per frame, as CPU time of the rendering thread (the machine running the
    /// bench may be shared: time the thread spent descheduled is not the view's cost), with
    /// the wall-clock p99 beside it:
    /// - `render_task_view_200x50_median_ms` / `_p99_ms` / `_wall_p99_ms`: AppState.render
    ///   with the task view on top, following the newest line;
    /// - `render_home_200x50_p99_ms`: Home measured the same way in the same run (the baseline);
    /// - `render_task_view_paused_200x50_p99_ms`: the task view scrolled into the middle;
    /// - `update_task_view_chunk_median_ms` / `_p99_ms`: one output chunk appended and the
    ///   view's lines converted again (what a live frame adds before drawing).
    @MainActor
    static func run(iterations: Int = 400, width: Int = 200, height: Int = 50) -> [String: Double] {
        var (app, buffer, lines) = filled()
        var results: [String: Double] = [:]
        var home = AppState.benchmark()
        results["render_home_200x50_p99_ms"] = samples(iterations) { _ = home.render(width: width, height: height) }.p99
        let follow = samples(iterations) { _ = app.render(width: width, height: height) }
        results["render_task_view_200x50_median_ms"] = follow.median
        results["render_task_view_200x50_p99_ms"] = follow.p99
        results["render_task_view_200x50_wall_p99_ms"] = follow.wallP99

        var paused = app
        for _ in 0..<600 { _ = paused.handle(.char("k"), now: 0) }
        results["render_task_view_paused_200x50_p99_ms"] =
            samples(iterations) { _ = paused.render(width: width, height: height) }.p99

        var n = 0
        let update = samples(iterations) {
            n += 1
            buffer.append([chunk(n % 7 == 0 ? "\n\n" : "word\(n) ", seq: 1_000_000 + n)])
            _ = lines.lines(of: buffer)
        }
        results["update_task_view_chunk_median_ms"] = update.median
        results["update_task_view_chunk_p99_ms"] = update.p99
        return results
    }

    /// The dashboard with the task view on top, following a task that holds 2,000 lines of
    /// markdown, code and tool output (what `make bench`'s task view row draws), with the
    /// buffer and converter behind it.
    @MainActor
    static func filled() -> (app: AppState, buffer: TaskOutputBuffer, lines: TaskOutputLines) {
        var buffer = TaskOutputBuffer(capacity: 2000)
        var seq = 0
        func add(_ text: String, _ stream: String = "assistant") {
            seq += 1
            buffer.append([chunk(text, seq: seq, stream: stream)])
        }
        var round = 0
        while buffer.lines.count < 2000 {
            round += 1
            add(sampleMarkdown(round))
            add("→ tool_use: Bash {\"command\": \"swift test\"}\n\u{1B}[32mok\u{1B}[0m   batch \(round)\n", "tool")
        }
        var lines = TaskOutputLines()
        let model = TaskOutputViewModel(
            taskID: "bench", title: "Migrate ledger writes to batched upserts", status: .running,
            lines: lines.lines(of: buffer), firstLineNumber: lines.firstLineNumber)

        var app = AppState.benchmark()
        app.stack.push(TaskOutputPane(model: model))
        return (app, buffer, lines)
    }

    private static func chunk(_ text: String, seq: Int, stream: String = "assistant") -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: "bench", seq: seq, type: .output,
            payload: .output(text: UntrustedText.cleanKeepingSGR(text), stream: stream))
    }

    /// CPU median and 99th percentile, wall 99th percentile of `n` runs (after a warm-up).
    private static func samples(_ n: Int, _ body: () -> Void) -> (median: Double, p99: Double, wallP99: Double) {
        let samples = BenchSamples.measure(n, body)
        return (samples.cpu(percentile: 50), samples.cpu(percentile: 99), samples.wall(percentile: 99))
    }

    private static func sampleMarkdown(_ round: Int) -> String {
        """
        ## Step \(round): batch the ledger writes

        The failing case only shows up when two writers race on the same **contract id**; \
        see `Sources/Ledger/BatchWriter.swift` and [the notes](https://example.com/notes/\(round)).

        - [x] write the failing test
        - [ ] move the retry loop out of the handler
        - cap the backoff at 30 s with *jitter*

        | Step | 状態 | ms |
        |:-----|:----:|---:|
        | parse | 完了 | 12 |
        | write | running | 140 |

        ```swift
        struct BatchWriter {
            let db: Database
            func write(_ rows: [LedgerRow]) throws {
                try db.transaction { for row in rows { try db.upsert(row) } }  // one transaction
            }
        }
        ```

        > The ack is sent before the write is durable.


        """
    }
}
