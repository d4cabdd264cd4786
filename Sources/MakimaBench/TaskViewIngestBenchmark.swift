import Foundation
import Glibc
import MakimaKit
@_spi(Fuzzing) import MakimaTUI

/// Figures for a burst of live output: 100,000 events (a sixth of them into the task on screen,
/// the rest spread over other tasks) taken in by the UI thread in the batches the sync engine
/// posts, once with the task's output view open and once with Home open (the baseline, same
/// run). CPU time of this thread, so a shared machine's other load does not count.
///
/// The cadence is the real loop's (`EventLoop`, `LiveDashboard.apply`): every batch goes into
/// the stores as it arrives; the view's model is built under observation (`PaneBindings`, the
/// `.detail` binding, as `LiveDashboard.rebuildShown` does), and built again and a frame drawn
/// only when a store it read changed and a frame is due, at most one per
/// `EventLoop.frameInterval`. Batches arrive on a steady clock
/// of `eventsPerSecond` (50,000 by default, about what the bare client in `make bench` takes
/// in), so both runs draw the same number of frames whatever this machine's load.
/// - `ingest_100k_home_ms`, `ingest_100k_task_view_ms`: the whole burst;
/// - `ingest_100k_task_view_over_home_pct`: how much slower with the task view open (target
///   under 20 %);
/// - `ingest_100k_frames`: frames drawn in each run.
package enum TaskViewIngestBenchmark {
    @MainActor
    package static func run(
        events: Int = 100_000, batch: Int = 500, eventsPerSecond: Double = 50_000, width: Int = 200, height: Int = 50
    ) -> [String: Double] {
        let cadence = Cadence(batch: batch, eventsPerSecond: eventsPerSecond)
        // A warm-up burst, so neither run pays for first-use costs the other does not.
        _ = burst(events: events / 10, cadence: cadence, width: width, height: height, taskViewOpen: true)
        let home = burst(events: events, cadence: cadence, width: width, height: height, taskViewOpen: false)
        let view = burst(events: events, cadence: cadence, width: width, height: height, taskViewOpen: true)
        return [
            "ingest_100k_home_ms": home.ms,
            "ingest_100k_task_view_ms": view.ms,
            "ingest_100k_task_view_over_home_pct": home.ms > 0 ? (view.ms / home.ms - 1) * 100 : 0,
            "ingest_100k_frames": Double(view.frames),
        ]
    }

    private struct Cadence {
        let batch: Int
        let eventsPerSecond: Double
    }

    @MainActor
    private static func burst(events: Int, cadence: Cadence, width: Int, height: Int, taskViewOpen: Bool) -> (
        ms: Double, frames: Int
    ) {
        let hub = StoreHub()
        var app = AppState.benchmark()
        var lines = TaskOutputLines()
        let bindings = PaneBindings { _ in }
        if taskViewOpen {
            hub.tasks.keepOutput(of: "t0")
            app.stack.push(TaskOutputPane(model: TaskOutputViewModel(taskID: "t0", title: "burst")))
        }
        var lastFrame = -Double.infinity
        var frames = 0
        func frame() {
            // `LiveDashboard.rebuildShown` before the frame, then the frame itself.
            // What the build reads from the stores is read with tracking armed; the conversion
            // itself reads none.
            if taskViewOpen && bindings.isDirty(.detail),
                let buffer = bindings.build(.detail, { hub.tasks.outputs["t0"] })
            {
                var model = TaskOutputViewModel(
                    taskID: "t0", title: "burst", lines: lines.lines(of: buffer), firstLineNumber: lines.firstLineNumber
                )
                model.links = lines.linkURLs
                app.stack.update(.tasks, as: TaskOutputPane.self) { $0.update(model) }
            }
            _ = app.render(width: width, height: height)
            frames += 1
        }
        let batches = outputBatches(events: events, batch: cadence.batch)
        let start = threadCPUSeconds()
        var sent = 0
        for chunk in batches {
            sent += chunk.count
            hub.apply(.events(chunk))  // marks the bindings it changed dirty, at once
            let now = Double(sent) / cadence.eventsPerSecond
            if now - lastFrame >= EventLoop.frameInterval {
                frame()
                lastFrame = now
            }
        }
        frame()  // what the burst left on screen
        return ((threadCPUSeconds() - start) * 1000, frames)
    }

    /// The burst in the batches the engine hands over, decoded on its own thread (not timed):
    /// output spread over six tasks, every fifth event markdown with a heading and a link.
    private static func outputBatches(events: Int, batch: Int) -> [[TaskEvent]] {
        let all = InterleavedOutput.events(
            count: events, tasks: 6, taskID: { "t\($0)" },
            text: { k in
                k % 5 == 0
                    ? "## step \(k)\n\nsome **bold** prose and `code` \(k), [a link](https://example.com/\(k))\n\n"
                    : "line \(k) of the burst, plain words\n"
            })
        return stride(from: 0, to: all.count, by: batch).map { Array(all[$0..<min($0 + batch, all.count)]) }
    }

}

/// A pane on screen through a live burst from the dev server (`makima-tui bench ingest
/// --task-view` / `--home`): after each batch the engine posts is in the stores, what
/// `LiveDashboard` does with that pane open, at most one model build and frame per
/// `EventLoop.frameInterval` on the real clock.
/// Either pane's model is built under observation (`PaneBindings`, as `rebuildShown` does:
/// the `.detail` binding for the task view, as `TaskOutputController.rebuild` runs there), and
/// rebuilt and drawn when a store it read changed.
@MainActor
final class BurstWatcher {
    private enum Shown {
        case home
        case taskView(String)
    }

    private let hub: StoreHub
    private let shown: Shown
    private let bindings: PaneBindings
    private let width: Int
    private let height: Int
    private var app: AppState
    /// The task view's lines converted so far.
    private var lines = TaskOutputLines()
    private var stale = false
    private var lastFrame = -Double.infinity
    private(set) var frames = 0

    private init(hub: StoreHub, shown: Shown, width: Int, height: Int) throws {
        self.hub = hub
        self.shown = shown
        bindings = PaneBindings { _ in }
        self.width = width
        self.height = height
        app = AppState.benchmark()
    }

    /// The first task's output view open.
    static func taskView(hub: StoreHub, taskID: String, width: Int = 200, height: Int = 50) throws -> BurstWatcher {
        hub.tasks.keepOutput(of: taskID)
        let w = try BurstWatcher(hub: hub, shown: .taskView(taskID), width: width, height: height)
        w.app.stack.push(TaskOutputPane(model: TaskOutputViewModel(taskID: taskID, title: "burst")))
        return w
    }

    /// Home open, its model built from the stores once before the burst.
    static func home(hub: StoreHub, width: Int = 200, height: Int = 50) throws -> BurstWatcher {
        let w = try BurstWatcher(hub: hub, shown: .home, width: width, height: height)
        w.stale = true
        w.frame()
        w.frames = 0  // drawn before the burst
        return w
    }

    /// Call after `updates` went into the stores.
    func applied(_ updates: [SyncUpdate]) {
        switch shown {
        case .taskView: if bindings.isDirty(.detail) { stale = true }
        case .home: if bindings.isDirty(.home) { stale = true }
        }
        let now = Clocks.monotonic()
        if stale && now - lastFrame >= EventLoop.frameInterval {
            frame()
            lastFrame = now
        }
    }

    /// The frame the burst leaves on screen.
    func finish() { if stale { frame() } }

    private func frame() {
        if stale {
            stale = false
            switch shown {
            case .taskView(let taskID):
                let hub = self.hub
                if let buffer = bindings.build(.detail, { hub.tasks.outputs[taskID] }) {
                    var model = TaskOutputViewModel(
                        taskID: taskID, title: "burst", lines: lines.lines(of: buffer),
                        firstLineNumber: lines.firstLineNumber)
                    model.links = lines.linkURLs
                    app.stack.update(.tasks, as: TaskOutputPane.self) { $0.update(model) }
                }
            case .home:
                let hub = self.hub
                let mesh = bindings.build(.home) { HomeMeshModel.from(hub, now: Date()) }
                app.stack.update(.home, as: HomePane.self) { $0.model.mesh = mesh }
            }
        }
        _ = app.render(width: width, height: height)
        frames += 1
    }
}
