import Foundation
import Testing

@testable import MakimaKit

/// Home's recent tasks in a large mesh: the newest few from every list, and the short list
/// Home fetches for them kept short as tasks start.
@MainActor @Suite struct RecentTasksTests {
    let t0 = Date(timeIntervalSince1970: 2_000_000)

    @Test("recent(n): the n newest across every list and the details, each task once")
    func newestAcrossLists() {
        let hub = StoreHub()
        let many = (0..<5000).map {
            MeshTask(id: "t\($0)", status: .completed, updatedAt: t0.addingTimeInterval(Double($0 % 4000)))
        }
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks(many), fetchedAt: t0, fromCache: false))
        let running = [MeshTask(id: "t10", status: .running, updatedAt: t0.addingTimeInterval(10))]
        hub.apply(.list(.tasks(status: .running, contractID: nil), .tasks(running), fetchedAt: t0, fromCache: false))
        hub.tasks.details["d"] = MeshTask(id: "d", status: .running, updatedAt: t0.addingTimeInterval(9999))
        let recent = hub.tasks.recent(4)
        #expect(recent.map(\.id) == ["d", "t3999", "t3998", "t3997"])
        let all = hub.tasks.recent(6000)
        #expect(all.count == 5001 && Set(all.map(\.id)).count == 5001)
        let stamps = all.map { $0.updatedAt ?? .distantPast }
        #expect(stamps == stamps.sorted(by: >))
        #expect(hub.tasks.recent(0).isEmpty)
    }

    @Test("the recent list (one page with a limit) takes a task that starts and stays at its limit")
    func recentListKeepsItsLimit() {
        let hub = StoreHub()
        let three = (0..<3).map { MeshTask(id: "r\($0)", status: .completed, updatedAt: t0) }
        hub.apply(.list(.recentTasks(limit: 3), .tasks(three), fetchedAt: t0, fromCache: false))
        #expect(hub.tasks.rows(.init(limit: 3)).map(\.id) == ["r0", "r1", "r2"])
        hub.apply(
            .events([
                TaskEvent(
                    eventID: 1, taskID: "new", seq: 1, type: .status,
                    payload: .status(status: .running, previous: .queued, reason: nil))
            ]))
        #expect(hub.tasks.rows(.init(limit: 3)).map(\.id) == ["new", "r0", "r1"])
        #expect(ListQuery.recentTasks(limit: 3).description == "tasks?limit=3")
    }
}
