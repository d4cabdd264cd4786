import Foundation
import MakimaKit
import TestSupport
import Testing

/// A task list that pages forever (one new large task per page, a fresh cursor each time)
/// used to make every refresh read 200 pages (`watch` at 870 MB). Against the dev server's
/// endless mode: one page when its items are too large to be list entries, the byte budget
/// otherwise.
@Suite(.timeLimit(.minutes(2))) struct EndlessListTests {
    /// The whole task list's pages as the sync engine reads them (`ListKind.fetch`), with the
    /// items they held.
    private func readTasks(_ server: DevServer, maxBytes: Int = ListPaging.maxBytes) throws -> (
        pager: ListPager<MeshTask>, items: [MeshTask]
    ) {
        var items: [MeshTask] = []
        let endpoint = ListKinds.tasks.endpoint(for: .tasks(status: nil, contractID: nil))
        let pager = try server.client().listPagesBlocking(MeshTask.self, endpoint, maxBytes: maxBytes) { added, _ in
            items += added
        }
        return (pager, items)
    }

    private func pagesServed(_ server: DevServer) throws -> Int {
        try server.controlJSON(method: .get, path: "/_dev/hostile/endless_list")["pages"] as? Int ?? -1
    }

    @Test func oneMebibyteItemsCostOnePage() throws {
        let server = try DevServer()
        _ = try server.control(path: "/_dev/hostile/endless_list", query: ["kib": "1024"])
        let (pager, items) = try readTasks(server)
        #expect(items.isEmpty)
        #expect(pager.oversizedItems == 1)
        #expect(pager.truncated)
        #expect(try pagesServed(server) == 1)
    }

    @Test func itemsUnderTheItemCapStopAtTheByteBudget() throws {
        let server = try DevServer()
        _ = try server.control(path: "/_dev/hostile/endless_list", query: ["kib": "128"])
        let (pager, _) = try readTasks(server, maxBytes: 2 << 20)
        #expect(pager.bound == .bytes(2 << 20))
        #expect(pager.bytes >= 2 << 20 && pager.bytes < (2 << 20) + (256 << 10))
        #expect(try pagesServed(server) == pager.pages)
        #expect(pager.pages <= 17)
    }

    /// The sync engine's refreshes: the list cut at a bound is read once, then backs off (the
    /// next refreshes ask nobody), and the user is told once.
    @Test func theEngineBacksOffAListCutAtABoundAndSaysItOnce() throws {
        let server = try DevServer()
        _ = try server.control(path: "/_dev/hostile/endless_list", query: ["kib": "1024"])
        let rec = OutboxRecorder()
        defer { rec.stop() }
        let engine = try SyncEngine(client: try server.client(), apiKey: server.apiKey, cache: nil, outbox: rec.outbox)
        let query = ListQuery.tasks(status: nil, contractID: nil)
        for _ in 0..<5 {
            #expect(engine.refresh(query, force: true))
            #expect(rec.waitUntil(20) { !engine.isRefreshing(query) })
        }
        #expect(try pagesServed(server) == 1)
        #expect(rec.waitUntil(5) { !rec.noticeTexts.isEmpty })
        #expect(
            rec.noticeTexts.filter { $0.contains("larger than one refresh reads") }.count == 1, "\(rec.noticeTexts)")
    }
}
