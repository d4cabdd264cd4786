import CNcursesShim
import Glibc

/// Figures, not tests: how long a full 200×50 frame of Home takes to render into the cell
/// buffer, and to flush through ncurses (onto `newterm` writing to /dev/null).
public enum RenderBenchmark {
    /// Median milliseconds per operation:
    /// - `render_home_200x50_ms`: AppState.render (chrome + Home) into a new buffer;
    /// - `flush_full_200x50_ms`: every cell through `mk_setcchar`/`mvwadd_wch` and a complete
    ///   repaint by `doupdate` (what a resize costs);
    /// - the task view's figures (`TaskViewBenchmark`: 2,000 lines of markdown, median and p99);
    /// - `flush_clock_change_200x50_ms`: a frame where only the clock changed (the idle case).
    @MainActor
    public static func run(iterations: Int = 200, term: String = "xterm-256color") -> [String: Double] {
        let width = 200
        let height = 50
        TerminalLocale.configure()
        var app = AppState(
            masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .online, clock: "12:00"))
        app.stack.update(.home, as: HomePane.self) {
            $0.model.statusRows = [
                StatusRow("Terminal", "XTERM-256COLOR", .ok), StatusRow("Network", "NOT WIRED", .warn),
            ]
        }
        var results: [String: Double] = [:]
        results["render_home_200x50_ms"] = median(iterations) { _ = app.render(width: width, height: height) }
        results.merge(TaskViewBenchmark.run(), uniquingKeysWith: { a, _ in a })

        guard let screen = try? NcursesScreen(nullDeviceTerm: term, width: width, height: height) else {
            results["flush_error"] = 1
            return results
        }
        defer { screen.end() }
        let palette = ColorMapper.palette(for: .makima, capability: .palette256)
        let backend = NcursesBackend(palette: palette, utf8: TerminalLocale.isUTF8)
        let frameA = app.render(width: width, height: height)
        app.masthead.clock = "12:01"
        let frameB = app.render(width: width, height: height)
        results["flush_full_200x50_ms"] = median(iterations) {
            backend.invalidate()
            backend.flush(frameA)
        }
        var flip = false
        results["flush_clock_change_200x50_ms"] = median(iterations) {
            flip.toggle()
            backend.flush(flip ? frameB : frameA)
        }
        // What `make bench` reports for Home: a whole frame, rendered and flushed in full.
        let frames = samples(iterations) {
            backend.invalidate()
            backend.flush(app.render(width: width, height: height))
        }
        results["home_frame_200x50_p50_ms"] = frames[frames.count / 2]
        results["home_frame_200x50_p99_ms"] = frames[min(frames.count - 1, frames.count * 99 / 100)]
        // The task view's row, measured the same way: 2,000 lines of markdown and code.
        var taskView = TaskViewBenchmark.filled().app
        let taskFrames = samples(iterations) {
            backend.invalidate()
            backend.flush(taskView.render(width: width, height: height))
        }
        results["task_view_frame_200x50_p50_ms"] = taskFrames[taskFrames.count / 2]
        results["task_view_frame_200x50_p99_ms"] = taskFrames[min(taskFrames.count - 1, taskFrames.count * 99 / 100)]
        return results
    }

    /// Milliseconds per run of `body`, sorted (after one warm-up run).
    private static func samples(_ n: Int, _ body: () -> Void) -> [Double] {
        body()
        var out: [Double] = []
        out.reserveCapacity(n)
        for _ in 0..<n {
            let start = Clocks.monotonic()
            body()
            out.append((Clocks.monotonic() - start) * 1000)
        }
        return out.sorted()
    }

    private static func median(_ n: Int, _ body: () -> Void) -> Double {
        body()  // warm-up
        var samples: [Double] = []
        samples.reserveCapacity(n)
        for _ in 0..<n {
            let start = Clocks.monotonic()
            body()
            samples.append((Clocks.monotonic() - start) * 1000)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}
