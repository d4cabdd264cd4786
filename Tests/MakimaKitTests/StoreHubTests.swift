import Foundation
import Testing

@testable import MakimaKit

@MainActor @Suite struct StoreHubTests {
    let t0 = Date(timeIntervalSince1970: 2_000_000)

    @Test func errorsKeepStaleItems() {
        let hub = StoreHub()
        hub.apply(
            .list(
                .daemons, .daemons([Daemon(id: "a", status: .online), Daemon(id: "b", status: .offline)]),
                fetchedAt: t0, fromCache: true))
        #expect(hub.daemons.list.isStale)
        #expect(hub.daemons.onlineCount == 1 && hub.daemons.offlineCount == 1)
        hub.apply(.listFailed(.daemons, message: "unreachable"))
        #expect(hub.daemons.list.items.count == 2)
        #expect(hub.daemons.list.lastError == "unreachable")
        hub.apply(
            .list(
                .daemons, .daemons([Daemon(id: "a", status: .online)]), fetchedAt: t0.addingTimeInterval(30),
                fromCache: false))
        #expect(!hub.daemons.list.isStale)
        #expect(hub.daemons.list.lastError == nil)
        #expect(hub.daemons.list.age(now: t0.addingTimeInterval(42)) == 12)
    }

    @Test func cacheNeverOverwritesFreshServerData() {
        let hub = StoreHub()
        hub.apply(
            .list(
                .directives(pendingOnly: true),
                .directives([Directive(id: "d", title: "x", status: "open", hasPendingQuestion: true)]), fetchedAt: t0,
                fromCache: false))
        hub.apply(.list(.directives(pendingOnly: true), .directives([]), fetchedAt: t0, fromCache: true))
        #expect(hub.directives.pendingQuestionCount == 1)
    }

    @Test func statusEventsMoveTasksOutOfFilteredLists() {
        let hub = StoreHub()
        hub.apply(
            .list(
                .tasks(status: .running, contractID: nil),
                .tasks([MeshTask(id: "t1", status: .running), MeshTask(id: "t2", status: .running)]), fetchedAt: t0,
                fromCache: false))
        hub.apply(
            .events([
                TaskEvent(
                    eventID: 1, taskID: "t1", seq: 1, type: .status,
                    payload: .status(status: .completed, previous: .running, reason: nil))
            ]))
        #expect(hub.tasks.list(.init(status: .running)).items.map(\.id) == ["t2"])
        #expect(hub.tasks.outputs["t1"]?.status == .completed)
        #expect(MeshSummary(hub).runningTasks == 1)
    }

    @Test func statusEventsMoveTasksIntoTheListsTheyNowMatch() {
        let hub = StoreHub()
        hub.apply(
            .list(
                .tasks(status: .running, contractID: nil), .tasks([MeshTask(id: "t1", status: .running)]),
                fetchedAt: t0, fromCache: false))
        hub.apply(
            .list(
                .tasks(status: nil, contractID: nil),
                .tasks([MeshTask(id: "t1", status: .running), MeshTask(id: "t2", title: "build", status: .pending)]),
                fetchedAt: t0, fromCache: false))
        func status(_ id: Int64, _ task: String, _ s: TaskStatus) -> SyncUpdate {
            .events([
                TaskEvent(
                    eventID: id, taskID: task, seq: Int(id), type: .status,
                    payload: .status(status: s, previous: nil, reason: nil))
            ])
        }
        // A known task starts: it joins the running list with what is known of it.
        hub.apply(status(1, "t2", .running))
        #expect(hub.tasks.running.map(\.id) == ["t2", "t1"])
        #expect(hub.tasks.running.first?.title == "build")
        #expect(MeshSummary(hub).runningTasks == 2)
        // A task never listed starts: it is counted at once, and listed under all tasks too.
        hub.apply(status(2, "t3", .running))
        #expect(MeshSummary(hub).runningTasks == 3)
        #expect(hub.tasks.list(.init()).items.contains { $0.id == "t3" && $0.status == .running })
        // Ends leave the running list; the unfiltered list keeps them with their new status.
        hub.apply(status(3, "t2", .completed))
        hub.apply(status(4, "t3", .failed))
        #expect(hub.tasks.running.map(\.id) == ["t1"])
        #expect(hub.tasks.list(.init()).items.first { $0.id == "t2" }?.status == .completed)
        // A list not loaded yet is not made up from events.
        #expect(hub.tasks.lists[.init(status: .failed)] == nil)
    }

    @Test func notificationsAreKeptOnceAndToastedOnce() {
        let hub = StoreHub()
        let n = MeshNotification(id: 5, kind: .taskFailed, title: "Task failed", body: "b", link: .task("t"), at: t0)
        hub.apply(.notifications([n]))
        hub.apply(.notifications([n]))
        #expect(hub.notifications.items.count == 1)
        #expect(hub.notifications.takeToasts().count == 1)
        #expect(hub.notifications.takeToasts().isEmpty)
    }
}
