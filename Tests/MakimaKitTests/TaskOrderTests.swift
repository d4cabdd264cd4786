import Foundation
import Testing

@testable import MakimaKit

/// The Tasks pane's order kept change by change (`TaskOrder`) against a full sort.
@MainActor @Suite struct TaskOrderTests {
    let t0 = Date(timeIntervalSince1970: 2_000_000)

    @Test("after random status events, the kept order of every list equals a full sort of its items")
    func incrementalOrderEqualsFullSort() {
        var random = SeededGenerator(state: 18)  // fixed seed: a failure repeats
        let statuses: [TaskStatus] = [.running, .completed, .failed, .queued, .pending, .cancelled]
        let hub = StoreHub()
        let tasks = (0..<1_000).map { n in
            MeshTask(
                id: "t\(n)", contractID: n % 3 == 0 ? "c1" : nil, title: "task \(n)",
                status: statuses[n % statuses.count],
                // Few distinct times: ties are common, the id breaks them.
                updatedAt: n % 11 == 0 ? nil : t0.addingTimeInterval(Double(Int.random(in: 0..<50, using: &random))))
        }
        let filters: [TasksStore.Filter] = [
            .init(), .init(status: .running), .init(contractID: "c1"), .init(limit: 20),
        ]
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: t0, fromCache: false))
        hub.apply(
            .list(
                .tasks(status: .running, contractID: nil), .tasks(tasks.filter { $0.status == .running }),
                fetchedAt: t0, fromCache: false))
        hub.apply(
            .list(
                .tasks(status: nil, contractID: "c1"), .tasks(tasks.filter { $0.contractID == "c1" }), fetchedAt: t0,
                fromCache: false))
        hub.apply(.list(.recentTasks(limit: 20), .tasks(Array(tasks.prefix(20))), fetchedAt: t0, fromCache: false))
        for f in filters { _ = hub.tasks.order(f) }  // built once, then kept by the events below
        // Enough events, most about tasks no list holds yet, to split the order's runs.
        for n in 0..<1_500 {
            let id = "t\(Int.random(in: 0..<1_600, using: &random))"
            let at: Date? =
                Int.random(in: 0..<5, using: &random) == 0
                ? nil : t0.addingTimeInterval(Double(Int.random(in: 0..<80, using: &random)))
            hub.apply(
                .events([
                    TaskEvent(
                        eventID: Int64(n), taskID: id, seq: n, type: .status, ts: at,
                        payload: .status(status: statuses.randomElement(using: &random)!, previous: nil, reason: nil))
                ]))
            if n % 100 == 0 || n == 1_499 {
                for f in filters {
                    let kept = hub.tasks.order(f).tasks
                    let sorted = hub.tasks.list(f).items.sorted(by: TaskOrder.before)
                    #expect(kept == sorted, "filter \(f) after \(n + 1) events")
                }
            }
        }
    }

    @Test("a status event moves the task in the kept order without a new sort; a new list is sorted again")
    func keptNotRebuilt() {
        let hub = StoreHub()
        let tasks = (0..<5).map {
            MeshTask(id: "t\($0)", status: .queued, updatedAt: t0.addingTimeInterval(Double($0)))
        }
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: t0, fromCache: false))
        let first = hub.tasks.order(.init())
        #expect(first.tasks.map(\.id) == ["t4", "t3", "t2", "t1", "t0"])
        hub.apply(
            .events([
                TaskEvent(
                    eventID: 1, taskID: "t0", seq: 1, type: .status, ts: t0.addingTimeInterval(10),
                    payload: .status(status: .running, previous: .queued, reason: nil))
            ]))
        let moved = hub.tasks.order(.init())
        #expect(moved.tasks.map(\.id) == ["t0", "t4", "t3", "t2", "t1"])
        #expect(moved.generation == hub.tasks.list(.init()).generation)
        hub.apply(
            .list(.tasks(status: nil, contractID: nil), .tasks(Array(tasks.prefix(2))), fetchedAt: t0, fromCache: false)
        )
        #expect(hub.tasks.order(.init()).tasks.map(\.id) == ["t1", "t0"])
    }
}
