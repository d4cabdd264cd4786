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
        #expect(hub.tasks.rows(.init(status: .running)).map(\.id) == ["t2"])
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
        #expect(hub.tasks.rows(.init()).contains { $0.id == "t3" && $0.status == .running })
        // Ends leave the running list; the unfiltered list keeps them with their new status.
        hub.apply(status(3, "t2", .completed))
        hub.apply(status(4, "t3", .failed))
        #expect(hub.tasks.running.map(\.id) == ["t1"])
        #expect(hub.tasks.rows(.init()).first { $0.id == "t2" }?.status == .completed)
        // A list not loaded yet is not made up from events.
        #expect(hub.tasks.lists[.init(status: .failed)] == nil)
    }

    /// Output lines are held only for tasks viewed recently (the cache has the rest): events
    /// of other tasks update statuses but build no buffer, and the least recently viewed
    /// buffer goes once more tasks than the LRU holds have been viewed.
    @Test func outputIsHeldOnlyForRecentlyViewedTasks() {
        let hub = StoreHub()
        hub.apply(.detail(.task("t1"), ListPayload([MeshTask(id: "t1", status: .running)])))
        func output(_ task: String, _ seq: Int) -> TaskEvent {
            TaskEvent(
                eventID: Int64(seq), taskID: task, seq: seq, type: .output,
                payload: .output(text: "line \(seq)\n", stream: "assistant"))
        }
        hub.apply(.events([output("t1", 1), output("t2", 1)]))
        #expect(hub.tasks.outputs.isEmpty)

        hub.tasks.keepOutput(of: "t1")
        hub.apply(
            .events([
                output("t1", 2), output("t2", 2),
                TaskEvent(
                    eventID: 9, taskID: "t1", seq: 3, type: .status,
                    payload: .status(status: .completed, previous: .running, reason: nil)),
            ]))
        #expect(hub.tasks.outputs.keys.sorted() == ["t1"])
        #expect(hub.tasks.outputs["t1"]?.lines.map(\.text) == ["line 2", "completed"])
        #expect(hub.tasks.details["t1"]?.status == .completed)

        let capacity = hub.tasks.outputRetention.capacity
        for i in 0..<capacity { hub.tasks.keepOutput(of: "v\(i)") }
        #expect(hub.tasks.outputs["t1"] == nil)
        #expect(hub.tasks.outputs.count == capacity)
        // Viewing again moves a task to the recent end: it survives the next eviction.
        hub.tasks.keepOutput(of: "v0")
        hub.tasks.keepOutput(of: "w")
        #expect(hub.tasks.outputs["v0"] != nil)
        #expect(hub.tasks.outputs["v1"] == nil)
        // Older output read back (from the cache) for a task being opened keeps it too.
        hub.apply(.olderOutput(taskID: "t1", events: [output("t1", 1)]))
        #expect(hub.tasks.outputs["t1"]?.lines.map(\.text) == ["line 1"])
    }

    @Test func notificationsAreKeptOnceAndToastedOnce() {
        let hub = StoreHub()
        let n = MeshNotification(
            id: EventIdentity(taskID: "t", seq: 5), kind: .taskFailed, title: "Task failed", body: "b",
            link: .task("t"), at: t0)
        hub.apply(.notifications([n]))
        hub.apply(.notifications([n]))
        #expect(hub.notifications.items.count == 1)
        #expect(hub.notifications.takeToasts().count == 1)
        #expect(hub.notifications.takeToasts().isEmpty)
    }
}
