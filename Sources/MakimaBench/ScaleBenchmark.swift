import CNcursesShim
import Foundation
import Glibc
import MakimaKit
import MakimaTUI

/// Figures for a large mesh (10,000 tasks, 500 daemons by default), read the way the dashboard
/// reads it: the mesh is written to a cache file first (the task table a page at a time, as
/// the list save thread writes it), then the stores read that file through the UI thread's
/// own connection. Each keystroke is what the event loop does for it: `AppState.handle` (the
/// filter asks the table), `AppState.render` of the 200×50 screen and a flush through ncurses
/// (`newterm` on /dev/null; only changed cells reach the terminal, as on a real screen).
///
/// - `home_from_cache_ms`: start-up from that cache: the cache opened, the cached lists read, the
///   task table's counts and recent rows, Home's model and its first 200×50 frame (wall time);
///   `home_running`: the running count it shows (the mesh's: every eighth batch of titles);
/// - `tasks_first_frame_ms`: `3` from Home: the Tasks pane's model and first frame (CPU time);
/// - `store_change_ms` / `_p99_ms`: a status event with Tasks shown, as the UI thread sees it:
///   the event (its row shows the status at once), the model and frame; then the writer's
///   commit announced (`.taskRowsChanged`), the model and frame again (CPU time of the UI
///   thread; the commit itself runs on the writer thread and is not counted);
///   `base_store_change_ms`: the same event through the builder that sorted and made every
///   row from arrays in memory;
/// - `keystroke_200x50_median_ms` / `_p99_ms`: one filter keystroke, typed and erased, as CPU
///   time of the UI thread (`_wall_p99_ms` beside it);
/// - `rss_mb`: the process's resident memory with Tasks shown and Home built from the cache;
///   `base_rss_mb`: the same once the lists are also held as the stores held them before
///   (the whole list, the running list, the whole list in the pane's order);
/// - `cache_mb`: the cache file; `cache_fill_s`: writing it (the save thread's work);
///   `home_cache_open_ms`: the part of `home_from_cache_ms` spent opening the cache (its check
///   reads every page); `rss_start_mb`: the process before the mesh, `rss_filled_mb` once the
///   cache is written, `rss_home_mb` once Home is drawn from it;
/// - `tasks`, `daemons`: the mesh's size.
package enum ScaleBenchmark {
    /// What is typed: narrowing queries over the generated titles (ASCII and Japanese).
    static let queries = ["batch 0123", "監査ログ", "webhook sig", "flaky websocket"]
    static let (width, height) = (200, 50)

    @MainActor
    package static func run(tasks: Int = 10_000, daemons: Int = 500, rounds: Int = 6, term: String = "xterm-256color")
        -> [String: Double]
    {
        TerminalLocale.configure()
        var results: [String: Double] = [
            "tasks": Double(tasks), "daemons": Double(daemons), "rss_start_mb": SyncBenchmark.residentMB(),
        ]
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("makima-scale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("cache.sqlite")
        // A cap that holds the mesh: the task table's share is half of it.
        let retention = CacheRetention(
            eventsPerTask: 2_000, finishedTaskAge: 7 * 86_400,
            maxBytes: max(64 << 20, 2 * tasks * CacheStore.bytesPerTaskRow + (16 << 20)))
        guard fill(file, retention: retention, tasks: tasks, daemons: daemons, into: &results) else {
            return ["cache_error": 1]
        }

        // Start-up from the cache: Home's first full frame.
        let startWall = Clocks.monotonic()
        guard let cache = try? CacheStore.open(file: file, retention: retention).store else { return results }
        results["home_cache_open_ms"] = (Clocks.monotonic() - startWall) * 1000
        let hub = StoreHub()
        hub.tasks.useTable(TaskTable.reading(cache.file))
        for update in CacheBridge(cache: cache).cachedUpdates().updates { hub.apply(update) }
        let now = ScaleMesh.base
        var app = AppState.benchmark()
        let home = HomeMeshModel.from(hub, now: now)
        app.stack.update(.home, as: HomePane.self) { $0.model.mesh = home }
        _ = app.render(width: width, height: height)
        results["home_from_cache_ms"] = (Clocks.monotonic() - startWall) * 1000
        results["rss_home_mb"] = SyncBenchmark.residentMB()
        results["home_running"] = Double(home.runningCount)

        // `3` from Home: the Tasks pane's model and its first frame.
        app.stack.jump(to: .tasks)
        let first = threadCPUSeconds()
        app.stack.update(.tasks, as: ListPane.self) { $0.update(ListPaneModels.tasks(hub, status: nil, now: now)) }
        _ = app.render(width: width, height: height)
        results["tasks_first_frame_ms"] = (threadCPUSeconds() - first) * 1000

        var event = 0
        let change = storeChanges(hub, cache, &app, tasks: tasks, now: now, event: &event)
        results["store_change_ms"] = change[change.count / 2]
        results["store_change_p99_ms"] = change[change.count - 1]

        let keys = keystrokes(&app, rounds: rounds, term: term)
        results.merge(keys) { a, _ in a }
        results["rss_mb"] = SyncBenchmark.residentMB()

        baseline(hub, &app, tasks: tasks, daemons: daemons, now: now, event: &event, into: &results)
        cache.close()
        return results
    }

    /// Writes the mesh into a new cache at `file`: the time it takes, the file's size and the
    /// process's size after. False when the cache could not be written.
    private static func fill(
        _ file: URL, retention: CacheRetention, tasks: Int, daemons: Int, into results: inout [String: Double]
    ) -> Bool {
        let filled = Clocks.monotonic()
        guard let writer = try? CacheStore.open(file: file, retention: retention).store,
            (try? ScaleMesh.fill(writer, tasks: tasks, daemons: daemons)) != nil
        else { return false }
        results["cache_fill_s"] = Clocks.monotonic() - filled
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        results["cache_mb"] = Double(size) / 1_048_576
        writer.close()  // a dashboard starting has no other connection on its cache
        results["rss_filled_mb"] = SyncBenchmark.residentMB()
        return true
    }

    /// A store change with Tasks shown, sorted samples: the event, then its commit announced.
    @MainActor
    private static func storeChanges(
        _ hub: StoreHub, _ cache: CacheStore, _ app: inout AppState, tasks: Int, now: Date, event: inout Int
    ) -> [Double] {
        samples(20) {
            event += 1
            let e = statusEvent(number: event, tasks: tasks)
            hub.apply(.events([e]))
            showTasks(hub, &app, now: now)
            let writerCPU = threadCPUSeconds()
            _ = try? cache.appendEvents([e])  // the writer thread's work, not the UI's
            let notCounted = threadCPUSeconds() - writerCPU
            hub.apply(.taskRowsChanged)
            showTasks(hub, &app, now: now)
            return notCounted
        }
    }

    /// The stores as they were: the lists held in memory, every row made on a change.
    @MainActor
    private static func baseline(
        _ hub: StoreHub, _ app: inout AppState, tasks: Int, daemons: Int, now: Date, event: inout Int,
        into results: inout [String: Double]
    ) {
        let held = ScaleMesh.inMemory(tasks: tasks, daemons: daemons)
        results["base_rss_mb"] = SyncBenchmark.residentMB()
        let base = samples(3) {
            event += 1
            hub.apply(.events([statusEvent(number: event, tasks: tasks)]))
            let model = ScaleBaseline.tasks(held[0], hub, status: nil, now: now)
            app.stack.update(.tasks, as: ListPane.self) { $0.update(model) }
            _ = app.render(width: width, height: height)
            return 0
        }
        results["base_store_change_ms"] = base[base.count / 2]
        withExtendedLifetime(held) {}
    }

    @MainActor
    private static func showTasks(_ hub: StoreHub, _ app: inout AppState, now: Date) {
        let model = ListPaneModels.tasks(hub, status: nil, now: now)
        app.stack.update(.tasks, as: ListPane.self) { $0.update(model) }
        _ = app.render(width: width, height: height)
    }

    /// The `/` filter typed a key at a time and erased, each key flushed through ncurses.
    @MainActor
    private static func keystrokes(_ app: inout AppState, rounds: Int, term: String) -> [String: Double] {
        guard let screen = try? NcursesScreen(nullDeviceTerm: term, width: width, height: height) else {
            return ["flush_error": 1]
        }
        defer { screen.end() }
        let backend = NcursesBackend(
            palette: ColorMapper.palette(for: .makima, capability: .palette256), utf8: TerminalLocale.isUTF8)
        backend.flush(app.render(width: width, height: height))
        var samples = BenchSamples()
        func key(_ k: Key) {
            let mark = BenchSamples.Mark()
            _ = app.handle(k, now: 0)
            backend.flush(app.render(width: width, height: height))
            samples.record(since: mark)
        }
        for round in 0..<rounds {
            let query = queries[round % queries.count]
            _ = app.handle(.char("/"), now: 0)
            for c in query { key(.char(c)) }
            for _ in query { key(.backspace) }
            _ = app.handle(.escape, now: 0)
        }
        return [
            "keystrokes": Double(samples.count), "keystroke_200x50_median_ms": samples.cpu(percentile: 50),
            "keystroke_200x50_p99_ms": samples.cpu(percentile: 99),
            "keystroke_200x50_wall_p99_ms": samples.wall(percentile: 99),
        ]
    }

    /// A status event for a task spread over the list (most land off screen, as on a real mesh).
    static func statusEvent(number: Int, tasks: Int) -> TaskEvent {
        let statuses: [TaskStatus] = [.running, .completed, .failed, .queued]
        return TaskEvent(
            eventID: Int64(number), taskID: "t-\((number * 7_919) % max(1, tasks))", seq: number, type: .status,
            ts: ScaleMesh.base.addingTimeInterval(Double(number)),
            payload: .status(status: statuses[number % statuses.count], previous: nil, reason: nil))
    }

    /// Milliseconds per run of `body` (CPU time of this thread, less the seconds `body` says
    /// were another thread's work done here), sorted, after one warm-up.
    private static func samples(_ n: Int, _ body: () -> Double) -> [Double] {
        _ = body()
        var out: [Double] = []
        for _ in 0..<n {
            let start = threadCPUSeconds()
            let excluded = body()
            out.append((threadCPUSeconds() - start - excluded) * 1000)
        }
        return out.sorted()
    }

}
