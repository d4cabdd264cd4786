import CNcursesShim
import Glibc
import MakimaKit
import MakimaTUI

/// Figures, not tests: how long a full 200×50 frame of Home takes to render into the cell
/// buffer, and to flush through ncurses (onto `newterm` writing to /dev/null).
package enum RenderBenchmark {
    /// Median milliseconds per operation, and the two frames `make bench` reports:
    /// - `render_home_200x50_ms`: AppState.render (chrome + the live Home) into a new buffer;
    /// - `flush_full_200x50_ms`: a complete repaint: every cell through `setcchar`/`mvwadd_wch`
    ///   and `doupdate` after `clearok` (what a resize costs);
    /// - `flush_clock_change_200x50_ms`: a frame where only the clock changed (the idle case);
    /// - `home_frame_200x50_p50_ms`/`_p99_ms`: render + complete repaint, every frame;
    /// - `home_live_frame_200x50_p50_ms`/`_p99_ms`: render + flush of a typical live frame,
    ///   where the clock, the counts and a task's status change between frames;
    /// - the task view's figures (`TaskViewBenchmark`: 2,000 lines of markdown, median and p99).
    @MainActor
    package static func run(iterations: Int = 200, term: String = "xterm-256color") -> [String: Double] {
        let width = 200
        let height = 50
        TerminalLocale.configure()
        var app = AppState.benchmark()
        app.stack.update(.home, as: HomePane.self) {
            $0.model.statusRows = [
                StatusRow("Terminal", "XTERM-256COLOR", .ok), StatusRow("Network", "ONLINE", .ok),
            ]
            $0.model.mesh = liveHome(tick: 0)
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
        let frames = BenchSamples.measure(iterations) {
            backend.invalidate()
            backend.flush(app.render(width: width, height: height))
        }
        frames.report(as: "home_frame_200x50", into: &results)
        // And a typical live frame: the model changes a little, the frame is rendered and
        // flushed without forgetting what is on screen.
        var tick = 0
        let live = BenchSamples.measure(iterations) {
            tick += 1
            app.masthead.clock = "12:" + (tick % 60 < 10 ? "0" : "") + String(tick % 60)
            app.stack.update(.home, as: HomePane.self) { $0.model.mesh = liveHome(tick: tick) }
            backend.flush(app.render(width: width, height: height))
        }
        live.report(as: "home_live_frame_200x50", into: &results)
        // The task view's row, measured like Home's whole frame: 2,000 lines of markdown and code.
        var taskView = TaskViewBenchmark.filled().app
        BenchSamples.measure(iterations) {
            backend.invalidate()
            backend.flush(taskView.render(width: width, height: height))
        }.report(as: "task_view_frame_200x50", into: &results)
        return results
    }

    /// A busy mesh as Home shows it: twelve rows in every card; `tick` moves the counts and
    /// one task's status, as refreshes do.
    static func liveHome(tick: Int) -> HomeMeshModel {
        var m = HomeMeshModel()
        let statuses: [TaskStatus] = [.running, .queued, .completed, .failed, .pending]
        m.daemonsOnline = 10 + tick % 3
        m.daemonsOffline = 2
        m.offlineHosts = ["build-07.mesh.local", "gpu-02.mesh.local"]
        m.daemonLines = (0..<12).map {
            .init(
                id: "d\($0)", host: "worker-\($0).mesh.local", status: $0 < 2 ? .offline : $0 % 3 == 0 ? .busy : .online
            )
        }
        m.daemons = .fresh
        m.runningCount = 5 + tick % 4
        m.recentTasks = (0..<12).map {
            .init(
                id: "t\($0)", title: "Refactor the ingest pipeline, step \($0) — decode frames in one pass",
                status: statuses[($0 + ($0 == 0 ? tick : 0)) % statuses.count])
        }
        m.tasks = .fresh
        m.activeContractsCount = 7
        m.topContracts = (0..<12).map {
            .init(name: "Contract \($0): mesh observability", phase: "execute", id: "c\($0)")
        }
        m.contracts = .fresh
        m.pendingQuestions = (0..<3).map {
            .init(
                directive: "Directive \($0)", question: "Deploy the canary to region \($0) now?", directiveID: "q\($0)")
        }
        m.directives = .fresh
        m.latestListen = .init(
            title: "Stand-up", started: "started 3m ago", preview: "we agreed to ship the cache change first", id: "l0")
        m.olderListen = (1..<6).map { .init(title: "Session \($0)", started: "", preview: "", id: "l\($0)") }
        m.listen = .fresh
        return m
    }

    /// The median wall-clock milliseconds of `n` runs (after a warm-up).
    private static func median(_ n: Int, _ body: () -> Void) -> Double {
        BenchSamples.measure(n, body).wall(percentile: 50)
    }
}
