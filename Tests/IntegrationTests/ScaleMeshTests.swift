import Foundation
import MakimaKit
import Testing

/// The client against a large mesh (`--seed-scale`): lists longer than one page are read
/// whole, so the counts made from them are the server's.
@Suite(.serialized) struct ScaleMeshTests {
    @Test("a 2,500-task mesh: every page of the task lists is read, Home's counts are the server's")
    func pagedListsGiveTheServersCounts() async throws {
        let server = try DevServer(extra: ["--seed-scale", "2500,60"])
        let client = try server.client()
        let truth = try server.controlJSON(method: .get, path: "/_dev/seeded")
        let running = try #require(truth["running_tasks"] as? Int)
        let online = try #require(truth["daemons_online"] as? Int)
        #expect(truth["tasks"] as? Int == 2500)

        // Three pages of 1,000, as the engine (and `status`, `watch`) read them.
        var items: [MeshTask] = []
        let endpoint = ListKinds.tasks.endpoint(for: .tasks(status: nil, contractID: nil))
        let pager = try client.listPagesBlocking(MeshTask.self, endpoint) { added, _ in items += added }
        #expect(items.count == 2500 && pager.pages == 3 && !pager.truncated)
        #expect(Set(items.map(\.id)).count == 2500)
        let summary = try await MeshSummary.fetch(using: client)
        #expect(summary.runningTasks == running && running > 100)
        #expect(summary.daemonsOnline == online)

        let fetcher = MeshFetcher(client: client)
        #expect(try fetcher.list(.tasks(status: nil, contractID: nil)).count == 2500)
        let runningPayload = try fetcher.list(.tasks(status: .running, contractID: nil))
        #expect(runningPayload.items(as: MeshTask.self)?.allSatisfy { $0.status == .running } == true)
        #expect(runningPayload.count == running)
        // Home's recent tasks: one short page, the newest first.
        let recent = try #require(fetcher.list(.homeRecentTasks).items(as: MeshTask.self))
        #expect(recent.map(\.id) == items.prefix(12).map(\.id))
    }
}
