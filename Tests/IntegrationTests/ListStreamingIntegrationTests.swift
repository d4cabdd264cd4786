import Foundation
import MakimaKit
import Synchronization
import Testing

/// Lists of any length against the dev server: read whole page by page (there is no item
/// cap), and a reconnect that reads each list once.
@Suite(.serialized, .timeLimit(.minutes(4))) struct ListStreamingIntegrationTests {
    /// A sink that counts what it is given and keeps nothing.
    private final class CountingSink: ListSink {
        var pages: [Int] = []
        var received = 0
        var ids = Set<String>()
        func take(_ page: ListPage) {
            pages.append(page.number)
            received = page.received
            for t in page.items.items(as: MeshTask.self) ?? [] { ids.insert(t.id) }
        }
        func end(_ query: ListQuery, bound: ListBound?) -> ListPayload { ListPayload([MeshTask](), bound: bound) }
    }

    @Test("a 60,000-task list arrives whole, page after page (it was cut at 50,000), with its progress on the way")
    func sixtyThousandTasksArriveWhole() throws {
        let server = try DevServer(extra: ["--seed-scale", "60000,20"])
        #expect(try server.controlJSON(method: .get, path: "/_dev/seeded")["tasks"] as? Int == 60_000)
        let fetcher = MeshFetcher(client: try server.client())
        let all = ListQuery.tasks(status: nil, contractID: nil)

        // The seam: every page handed on as it arrives, in order, nothing held by the read.
        let sink = CountingSink()
        let result = try fetcher.list(all, into: sink)
        #expect(result.bound == nil && result.count == 0)
        #expect(sink.pages == Array(1...60))
        #expect(sink.received == 60_000 && sink.ids.count == 60_000)

        // The engine's fetch with the default sink: the stores get the whole list, and the
        // pane's title a few progress figures before it.
        let progress = Mutex<[Int]>([])
        let delivered = Mutex<Int?>(nil)
        let outbox = SyncOutbox()
        let engine = try SyncEngine(client: try server.client(), apiKey: server.apiKey, cache: nil, outbox: outbox)
        #expect(engine.refresh(all, force: true))
        let end = Date().addingTimeInterval(180)
        while delivered.withLock({ $0 }) == nil && Date() < end {
            for update in outbox.wait(until: Date().addingTimeInterval(0.2)) {
                switch update {
                case .listProgress(all, let received): progress.withLock { $0.append(received) }
                case .list(all, let payload, _, _): delivered.withLock { $0 = payload.count }
                default: break
                }
            }
        }
        #expect(delivered.withLock { $0 } == 60_000)
        let figures = progress.withLock { $0 }
        #expect(!figures.isEmpty && figures == figures.sorted() && figures.allSatisfy { $0 < 60_000 }, "\(figures)")
        #expect(figures.count <= 60, "throttled: at most one figure a page, 4 a second")
    }

    private func requests(_ server: DevServer) throws -> [String] {
        try server.controlJSON(method: .get, path: "/_dev/requests")["recent"] as? [String] ?? []
    }

    @Test("a reconnect reads Home's lists and the shown pane once each, whether the engine or the screen asks")
    func aReconnectReadsEachListOnce() throws {
        let server = try DevServer(extra: ["--seed-scale", "3000,20"])
        let rec = OutboxRecorder()
        defer { rec.stop() }
        let engine = try SyncEngine(
            client: try server.client(), apiKey: server.apiKey, cache: nil, outbox: rec.outbox,
            options: fastReconnect())
        defer { engine.stop() }
        let running = ListQuery.tasks(status: .running, contractID: nil)
        let all = ListQuery.tasks(status: nil, contractID: nil)
        // What the dashboard asks after a reconnect with Tasks on screen: Home's lists (the
        // same as `PaneID.home`'s) and the shown pane's.
        let screen = MeshSummary.queries + [.homeRecentTasks, .listenSessions(limit: nil), all]
        let idle = { screen.allSatisfy { !engine.isRefreshing($0) } }
        engine.start()
        #expect(rec.waitUntil(30) { rec.onlineCount == 1 })
        #expect(rec.waitUntil(60) { idle() && rec.list(running) != nil })
        for q in screen { engine.refreshAfterReconnect(q) }
        #expect(rec.waitUntil(60) { idle() && rec.list(all)?.count == 3000 })

        _ = try server.control(path: "/_dev/requests/reset")
        _ = try server.control(path: "/_dev/drop_ws")
        #expect(rec.waitUntil(30) { rec.onlineCount == 2 })
        // The engine's own lists for the open started before it said it was online; the
        // screen's ask comes after (the controller hears of the reconnect through the outbox).
        #expect(!engine.refreshAfterReconnect(running), "the engine read it for this open")
        for q in screen { engine.refreshAfterReconnect(q) }
        for q in screen { engine.refreshAfterReconnect(q) }  // a second ask, as from a repeated reconnect notice
        #expect(rec.waitUntil(60) { idle() })
        let asked = try requests(server).filter { $0.hasPrefix("GET /api/v1/") && !$0.contains("/subscribe") }
        let taskRequests = asked.filter { $0.hasPrefix("GET /api/v1/mesh/tasks?") }
        #expect(taskRequests.filter { $0.contains("status=running") }.count == 1, "\(taskRequests)")
        #expect(taskRequests.filter { $0.contains("limit=12") }.count == 1, "\(taskRequests)")
        #expect(taskRequests.filter { $0.hasPrefix("GET /api/v1/mesh/tasks?limit=1000") }.count == 3, "\(taskRequests)")
        #expect(asked.count == 3 + 1 + 1 + 5, "one read of each list: \(asked)")
        print("requests for one reconnect with Tasks shown (3,000 tasks, pages of 1,000): \(asked.count)")
    }
}
