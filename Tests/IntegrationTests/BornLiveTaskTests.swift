import Foundation
import TestSupport
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// Tasks that start after the last list read: their events arrive before any list holds
/// them, and the dashboard fetches each by id (`TaskNamer`) so its row reads its title
/// rather than its id, without a flood of ids becoming a flood of requests.
@MainActor @Suite(.serialized) struct BornLiveTaskTests {
    /// The dashboard's side, without a terminal: the engine's updates applied to the stores on
    /// this thread (the task table read from the cache the engine writes), and the tasks they
    /// name asked for, as `LiveDashboard.apply` does.
    @MainActor final class Dashboard {
        let server: DevServer
        let dir = TempDirectory()
        let cache: CacheStore
        let engine: SyncEngine
        let hub = StoreHub()

        init(server: DevServer, naming: TaskNamer.Limits = .init()) throws {
            self.server = server
            let file = URL(fileURLWithPath: dir.sub("cache.sqlite"))
            cache = try CacheStore.open(file: file).store
            var options = SyncEngine.Options()
            options.naming = naming
            engine = try SyncEngine(
                client: try server.client(), apiKey: server.apiKey, cache: cache, outbox: SyncOutbox(),
                options: options)
            hub.tasks.useTable(TaskTable.reading(file))
        }

        func pump(until deadline: TimeInterval = 30, _ done: () -> Bool) -> Bool {
            let end = Date().addingTimeInterval(deadline)
            while Date() < end {
                let updates = engine.outbox.wait(until: Date().addingTimeInterval(0.05))
                for u in updates { hub.apply(u) }
                let unknown = hub.unnamedTasks(in: updates)
                if !unknown.isEmpty { engine.nameTasks(unknown) }
                if done() { return true }
            }
            return done()
        }

        func stop() {
            engine.stop()
            hub.tasks.useTable(TaskTable.inMemory())
            cache.close()
        }

        /// The requests the server logged whose path is exactly `/api/v1/mesh/tasks/<id>`.
        func taskFetches() throws -> [String] {
            let recent = try server.controlJSON(method: .get, path: "/_dev/requests")["recent"] as? [String] ?? []
            return recent.filter { line in
                guard line.hasPrefix("GET /api/v1/mesh/tasks/") else { return false }
                let rest = line.dropFirst("GET /api/v1/mesh/tasks/".count)
                return !rest.contains("/") && !rest.contains("?") && !rest.isEmpty
            }
        }

        var homeTitles: [String] { HomeMeshModel.from(hub, now: Date()).recentTasks.map(\.title) }
        var tasksPaneTexts: [String] {
            let window = ListPaneModels.tasks(hub, status: nil, now: Date()).window
            return (0..<min(5, window.count)).map { window.row($0).line.text }
        }
    }

    static let home = ListQuery.homeRecentTasks.taskFilter!

    @Test func aTaskCreatedLiveIsNamedOnHomeAndInTasksWithinOneFetch() throws {
        let server = try DevServer(seed: 31, rate: 0)
        let d = try Dashboard(server: server)
        defer { d.stop() }
        d.engine.start()
        // Home's lists (the running tasks, the newest page) read once the socket opens.
        #expect(d.pump { d.hub.tasks.list(Self.home).hasLoaded })
        _ = try server.control(path: "/_dev/requests/reset")

        let title = "Born live: tidy the scheduler's heartbeat"
        let created = try server.controlJSON(path: "/_dev/task", query: ["status": "running", "title": title])
        let id = try #require(created["id"] as? String)
        let named = d.pump { d.homeTitles.contains(title) && d.tasksPaneTexts.contains { $0.contains(title) } }
        #expect(named, "Home: \(d.homeTitles); Tasks: \(d.tasksPaneTexts.prefix(3))")
        #expect(try d.taskFetches() == ["GET /api/v1/mesh/tasks/\(id)"])
        // Its daemon and contract came with it.
        let row = try #require(d.hub.tasks.table.task(id: id))
        #expect(row.title == title)
        #expect(row.daemonID == created["daemon_id"] as? String)
    }

    @Test func aFloodOfUnknownTasksCostsAtMostTheBucketsRequests() throws {
        let server = try DevServer(seed: 32, rate: 0)
        var naming = TaskNamer.Limits()
        naming.perSecond = 0  // the burst only: the bound does not depend on how long the test runs
        let d = try Dashboard(server: server, naming: naming)
        defer { d.stop() }
        d.engine.start()
        #expect(d.pump { d.hub.tasks.list(Self.home).hasLoaded })
        _ = try server.control(path: "/_dev/requests/reset")

        let flood = try server.controlJSON(path: "/_dev/hostile/gap_flood", query: ["tasks": "1000", "events": "2"])
        let ids = try #require(flood["tasks"] as? [String])
        #expect(d.pump { d.engine.namingStats.answers.fetched == naming.burst })
        // Whatever else arrives, the bucket is empty: a few more batches ask for nothing more.
        _ = d.pump(until: 1) { false }
        let fetched = try d.taskFetches()
        #expect(fetched.count == naming.burst, "\(fetched.count) fetches for \(ids.count) unknown tasks")
        let named = ids.filter { d.hub.tasks.table.task(id: $0)?.isUnnamed == false }
        #expect(named.count >= naming.burst)
    }

    /// A task opened on its own (a link, a toast) before any list held it: its detail is
    /// written into the task table, whose row the stores show from then on, with the plan
    /// the detail brought.
    @Test func aTaskFetchedOnItsOwnIsWrittenIntoTheTaskTable() throws {
        let server = try DevServer(seed: 33, rate: 0)
        let d = try Dashboard(server: server)
        defer { d.stop() }
        let title = "Opened from a link: rotate the relay's certificate"
        let created = try server.controlJSON(path: "/_dev/task", query: ["status": "running", "title": title])
        let id = try #require(created["id"] as? String)
        d.engine.loadDetail(.task(id))
        #expect(d.pump { d.hub.tasks.details[id] != nil })
        let row = try #require(d.hub.tasks.table.task(id: id), "no row for the task fetched on its own")
        #expect(row.title == title)
        #expect(row.daemonID == created["daemon_id"] as? String)
        // The table's next change settles the detail: the row is the task, the plan the detail's.
        d.hub.tasks.tableChanged()
        let shown = try #require(d.hub.tasks.task(id: id))
        #expect(shown.title == title && shown.status == .running)
        #expect(shown.plan == d.hub.tasks.details[id]?.plan)
    }
}
