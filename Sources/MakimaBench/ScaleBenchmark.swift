import CNcursesShim
import Foundation
import Glibc
import MakimaKit
import MakimaTUI

/// Figures for a large mesh (10,000 tasks, 500 daemons by default): the Tasks pane with every
/// task in it, and the `/` filter typed one key at a time. Each keystroke is what the event
/// loop does for it: `AppState.handle` (the filter refines its matches), `AppState.render` of
/// the 200×50 screen and a flush through ncurses (`newterm` on /dev/null; only changed cells
/// reach the terminal, as on a real screen).
///
/// - `keystroke_200x50_median_ms` / `_p99_ms`: one filter keystroke, typed and erased, as CPU
///   time of the UI thread (the bench machine may be shared; `_wall_p99_ms` beside it);
/// - `store_change_ms` / `_p99_ms`: a status event applied with Tasks shown, the pane's model
///   built and handed to the pane, the frame's cells (CPU time of the UI thread);
///   `base_store_change_ms`: the same through the builder that sorted and made every row;
/// - `tasks_first_frame_ms`: `3` from Home, the list's order sorted once and the first frame;
/// - `tasks`, `daemons`: the mesh's size.
package enum ScaleBenchmark {
    /// What is typed: narrowing queries over the generated titles (ASCII and Japanese).
    static let queries = ["batch 0123", "監査ログ", "webhook sig", "flaky websocket"]

    @MainActor
    package static func run(tasks: Int = 10_000, daemons: Int = 500, rounds: Int = 6, term: String = "xterm-256color")
        -> [String: Double]
    {
        let (width, height) = (200, 50)
        TerminalLocale.configure()
        let hub = StoreHub()
        fill(hub, tasks: tasks, daemons: daemons)
        var app = AppState(
            masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .online, clock: "12:00"))
        app.stack.jump(to: .tasks)
        var results: [String: Double] = ["tasks": Double(tasks), "daemons": Double(daemons)]

        let now = Date(timeIntervalSince1970: 1_800_000_000)
        // `3` from Home: the order sorted once from the list as it arrived, the first frame.
        let first = threadCPUTime()
        app.stack.update(.tasks, as: ListPane.self) { $0.update(ListPaneModels.tasks(hub, status: nil, now: now)) }
        _ = app.render(width: width, height: height)
        results["tasks_first_frame_ms"] = (threadCPUTime() - first) * 1000
        // A store change with Tasks shown: a status event, the model, the frame's cells; then the
        // same through the builder it replaced (every row sorted and made).
        var event = 0
        let change = samples(20) {
            event += 1
            applyStatusEvent(hub, number: event, tasks: tasks)
            let model = ListPaneModels.tasks(hub, status: nil, now: now)
            app.stack.update(.tasks, as: ListPane.self) { $0.update(model) }
            _ = app.render(width: width, height: height)
        }.cpu
        results["store_change_ms"] = change[change.count / 2]
        results["store_change_p99_ms"] = change[change.count - 1]
        let base = samples(3) {
            event += 1
            applyStatusEvent(hub, number: event, tasks: tasks)
            let model = ScaleBaseline.tasks(hub, status: nil, now: now)
            app.stack.update(.tasks, as: ListPane.self) { $0.update(model) }
            _ = app.render(width: width, height: height)
        }.cpu
        results["base_store_change_ms"] = base[base.count / 2]
        app.stack.update(.tasks, as: ListPane.self) { $0.update(ListPaneModels.tasks(hub, status: nil, now: now)) }

        guard let screen = try? NcursesScreen(nullDeviceTerm: term, width: width, height: height) else {
            results["flush_error"] = 1
            return results
        }
        defer { screen.end() }
        let backend = NcursesBackend(
            palette: ColorMapper.palette(for: .makima, capability: .palette256), utf8: TerminalLocale.isUTF8)
        backend.flush(app.render(width: width, height: height))

        var cpu: [Double] = []
        var wall: [Double] = []
        func key(_ k: Key) {
            let startWall = Clocks.monotonic()
            let startCPU = threadCPUTime()
            _ = app.handle(k, now: 0)
            backend.flush(app.render(width: width, height: height))
            cpu.append((threadCPUTime() - startCPU) * 1000)
            wall.append((Clocks.monotonic() - startWall) * 1000)
        }
        for round in 0..<rounds {
            let query = queries[round % queries.count]
            _ = app.handle(.char("/"), now: 0)
            for c in query { key(.char(c)) }
            for _ in query { key(.backspace) }
            _ = app.handle(.escape, now: 0)
        }
        cpu.sort()
        wall.sort()
        let p99 = min(cpu.count - 1, cpu.count * 99 / 100)
        results["keystrokes"] = Double(cpu.count)
        results["keystroke_200x50_median_ms"] = cpu[cpu.count / 2]
        results["keystroke_200x50_p99_ms"] = cpu[p99]
        results["keystroke_200x50_wall_p99_ms"] = wall[p99]
        return results
    }

    /// A status event for a task spread over the list (most land off screen, as on a real mesh).
    @MainActor
    static func applyStatusEvent(_ hub: StoreHub, number: Int, tasks: Int) {
        let statuses: [TaskStatus] = [.running, .completed, .failed, .queued]
        let at = Date(timeIntervalSince1970: 1_800_000_000 + Double(number))
        hub.apply(
            .events([
                TaskEvent(
                    eventID: Int64(number), taskID: "t-\((number * 7_919) % max(1, tasks))", seq: number,
                    type: .status, ts: at,
                    payload: .status(status: statuses[number % statuses.count], previous: nil, reason: nil))
            ]))
    }

    /// A mesh shaped like the dev server's `--seed-scale`: titles from a small set with a
    /// batch number, mixed statuses, daemons and contracts on most tasks.
    @MainActor
    static func fill(_ hub: StoreHub, tasks: Int, daemons: Int) {
        let titles = [
            "Migrate ledger writes to batched upserts", "Fix flaky WebSocket reconnect test",
            "Add rate limiting to /api/v1/orders", "監査ログのローテーション · rotate audit logs",
            "Harden webhook signature checks", "翻訳ファイルの整理 · tidy localisation files",
            "Investigate p99 latency spike in the mesh scheduler", "Trim the container image below 200 MB",
        ]
        let statuses: [TaskStatus] = [
            .completed, .completed, .completed, .running, .failed, .cancelled, .queued, .pending,
        ]
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let daemonList = (0..<daemons).map { i in
            Daemon(
                id: "d-\(i)", hostname: "host-\(i).mesh.local", status: i % 7 == 0 ? .offline : .online,
                lastHeartbeat: base, version: "0.14.2", runningTasks: i % 4, maxConcurrentTasks: 4)
        }
        let contracts = (0..<max(1, tasks / 100)).map { i in
            Contract(
                id: "c-\(i)", name: "Contract \(i) · 契約", phase: "executing", status: i % 3 == 0 ? .completed : .active,
                updatedAt: base)
        }
        var taskList: [MeshTask] = []
        taskList.reserveCapacity(tasks)
        for n in 0..<tasks {
            let contract: String? = n % 7 == 0 ? nil : "c-\(n % contracts.count)"
            let daemon: String? = daemons > 0 && n % 9 != 0 ? "d-\(n % daemons)" : nil
            let title = titles[n % titles.count] + " · batch " + String(format: "%05d", n)
            let age = Double(n) * 37
            taskList.append(
                MeshTask(
                    id: "t-\(n)", contractID: contract, title: title,
                    status: statuses[(n / titles.count) % statuses.count],
                    daemonID: daemon, updatedAt: base.addingTimeInterval(-age)))
        }
        hub.apply(.list(.daemons, .daemons(daemonList), fetchedAt: base, fromCache: false))
        hub.apply(.list(.contracts(status: nil), .contracts(contracts), fetchedAt: base, fromCache: false))
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks(taskList), fetchedAt: base, fromCache: false))
    }

    /// Milliseconds per run of `body` (CPU time of this thread), sorted, after one warm-up.
    private static func samples(_ n: Int, _ body: () -> Void) -> (cpu: [Double], count: Int) {
        body()
        var out: [Double] = []
        for _ in 0..<n {
            let start = threadCPUTime()
            body()
            out.append((threadCPUTime() - start) * 1000)
        }
        return (out.sorted(), n)
    }

    private static func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
