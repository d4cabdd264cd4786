import Foundation
import MakimaKit

/// The large mesh `bench scale` measures: titles from a small set with a batch number (ASCII
/// and Japanese), mixed statuses, daemons and contracts on most tasks, written to a cache file
/// the way the dashboard writes it (the task table a page at a time, the other lists whole).
enum ScaleMesh {
    static let base = Date(timeIntervalSince1970: 1_800_000_000)
    static let titles = [
        "Migrate ledger writes to batched upserts", "Fix flaky WebSocket reconnect test",
        "Add rate limiting to /api/v1/orders", "監査ログのローテーション · rotate audit logs",
        "Harden webhook signature checks", "翻訳ファイルの整理 · tidy localisation files",
        "Investigate p99 latency spike in the mesh scheduler", "Trim the container image below 200 MB",
    ]
    static let statuses: [TaskStatus] = [
        .completed, .completed, .completed, .running, .failed, .cancelled, .queued, .pending,
    ]

    static func task(_ n: Int, daemons: Int, contracts: Int) -> MeshTask {
        let contract: String? = n % 7 == 0 ? nil : "c-\(n % max(1, contracts))"
        let daemon: String? = daemons > 0 && n % 9 != 0 ? "d-\(n % daemons)" : nil
        let title = titles[n % titles.count] + " · batch " + String(format: "%05d", n)
        return MeshTask(
            id: "t-\(n)", contractID: contract, title: title, status: statuses[(n / titles.count) % statuses.count],
            daemonID: daemon, updatedAt: base.addingTimeInterval(-Double(n) * 37))
    }

    static func daemons(_ count: Int) -> [Daemon] {
        (0..<count).map { i in
            Daemon(
                id: "d-\(i)", hostname: "host-\(i).mesh.local", status: i % 7 == 0 ? .offline : .online,
                lastHeartbeat: base, version: "0.14.2", runningTasks: i % 4, maxConcurrentTasks: 4)
        }
    }

    static func contracts(tasks: Int) -> [Contract] {
        (0..<max(1, tasks / 100)).map { i in
            Contract(
                id: "c-\(i)", name: "Contract \(i) · 契約", phase: "executing", status: i % 3 == 0 ? .completed : .active,
                updatedAt: base)
        }
    }

    /// The tasks in running order of the server's list (newest first), `count` at a time.
    static func pages(tasks: Int, daemons: Int, size: Int = 1_000) -> some Sequence<[MeshTask]> {
        let contracts = max(1, tasks / 100)
        return stride(from: 0, to: tasks, by: size).lazy.map { start in
            (start..<min(start + size, tasks)).map { task($0, daemons: daemons, contracts: contracts) }
        }
    }

    /// A cache file holding the mesh: every task list the dashboard fetches at start (all,
    /// running, Home's recent), the daemons and the contracts, saved as the save thread does.
    static func fill(_ cache: CacheStore, tasks: Int, daemons: Int) throws {
        let bridge = CacheBridge(cache: cache)
        try bridge.store(.daemons, .daemons(Self.daemons(daemons)), fetchedAt: base)
        try bridge.store(.contracts(status: nil), .contracts(contracts(tasks: tasks)), fetchedAt: base)
        let all = ListQuery.tasks(status: nil, contractID: nil)
        var pass = try cache.beginTaskPass(all.taskFilter!, key: all.description)
        for page in pages(tasks: tasks, daemons: daemons) { try cache.writeTaskPage(page, into: &pass) }
        try cache.finishTaskPass(pass, fetchedAt: base, whole: true)
        let running = ListQuery.tasks(status: .running, contractID: nil)
        var runningPass = try cache.beginTaskPass(running.taskFilter!, key: running.description)
        for page in pages(tasks: tasks, daemons: daemons) {
            try cache.writeTaskPage(page.filter { $0.status == .running }, into: &runningPass)
        }
        try cache.finishTaskPass(runningPass, fetchedAt: base, whole: true)
        let recent = ListQuery.homeRecentTasks
        let newest = Array(pages(tasks: min(tasks, 12), daemons: daemons).joined())
        try bridge.store(recent, .tasks(newest), fetchedAt: base)
    }

    /// The mesh as the stores held it before lists were windows over the cache: the whole list
    /// and the running list as arrays of tasks, the whole list again in the pane's order.
    static func inMemory(tasks: Int, daemons: Int) -> [[MeshTask]] {
        let all = Array(pages(tasks: tasks, daemons: daemons).joined())
        return [all, all.filter { $0.status == .running }, all.sorted(by: TasksStore.before)]
    }
}
