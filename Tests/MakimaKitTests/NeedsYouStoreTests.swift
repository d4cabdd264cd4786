import Foundation
import Testing

@testable import MakimaKit

/// The needs-you list learnt from what reaches the stores: events, lists, the cache's
/// acknowledgements; on a skewed server clock, with events before any list holds the task.
@MainActor @Suite struct NeedsYouStoreTests {
    let t0 = Date(timeIntervalSince1970: 2_000_000_000)

    func event(_ task: String, _ seq: Int, _ payload: TaskEventPayload, at: Date? = nil) -> TaskEvent {
        TaskEvent(eventID: Int64(seq), taskID: task, seq: seq, type: .status, ts: at, payload: payload, arrivedAt: at)
    }

    @Test func aGateReadyWaitsUntilTheTaskEndsAndAFailureUntilItRunsAgain() {
        let hub = StoreHub()
        hub.apply(
            .events([
                event("t1", 1, .output(text: "building…", stream: "assistant")),
                event("t1", 2, .completionGate(ready: true, summary: "ship it?", body: ""), at: t0),
                event("t2", 1, .status(status: .failed, previous: .running, reason: "exit 1"), at: t0 + 5),
            ]))
        #expect(hub.needsYou.items.map(\.id) == ["gate:t1", "failed:t2"])
        #expect(hub.needsYou.items.first?.title == "ship it?")
        hub.apply(.events([event("t1", 3, .status(status: .completed, previous: .running, reason: nil))]))
        hub.apply(.events([event("t2", 2, .status(status: .running, previous: .failed, reason: nil))]))
        #expect(hub.needsYou.items.isEmpty)
    }

    @Test func aGateNotReadyIsNothingAndOutputAloneChangesNothing() {
        let hub = StoreHub()
        hub.apply(.events([event("t", 1, .completionGate(ready: false, summary: nil, body: ""))]))
        hub.apply(.events((2..<200).map { event("t", $0, .output(text: "x", stream: "assistant")) }))
        #expect(hub.needsYou.items.isEmpty)
    }

    @Test func anAcknowledgedItemStaysGoneUntilItComesBackAnew() {
        let store = NeedsYouStore()
        store.events(
            [event("t", 1, .status(status: .failed, previous: nil, reason: nil), at: t0)], clock: .zero, now: t0)
        store.acknowledge("failed:t", at: t0)
        #expect(store.items.isEmpty)
        #expect(store.takeUnsaved().map(\.item) == ["failed:t"])
        // Run again and failed again: a new failure, shown again, the old acknowledgement forgotten.
        store.events(
            [
                event("t", 2, .status(status: .running, previous: .failed, reason: nil)),
                event("t", 3, .status(status: .failed, previous: .running, reason: nil), at: t0 + 60),
            ], clock: .zero, now: t0 + 60)
        #expect(store.items.map(\.id) == ["failed:t"])
        let forgotten = store.takeUnsaved()
        #expect(forgotten.count == 1 && forgotten[0].item == "failed:t" && forgotten[0].at == nil)
    }

    @Test func restoredAcknowledgementsHideWhatTheyName() {
        let store = NeedsYouStore()
        store.restore(acknowledged: ["failed:old": t0])
        store.tasksListed(
            [MeshTask(id: "old", status: .failed, updatedAt: t0), MeshTask(id: "new", status: .failed, updatedAt: t0)],
            clock: .zero, now: t0 + 10)
        #expect(store.items.map(\.id) == ["failed:new"])
    }

    /// A server three hours ahead: its failure of "an hour ago" is two hours in our future;
    /// read on our clock, a day-old failure is history and an hour-old one is not.
    @Test func theFailureWindowIsReadOnOurClock() {
        let ahead = ClockOffset(seconds: 3 * 3_600)
        let store = NeedsYouStore()
        let server = t0 + ahead.seconds
        store.tasksListed(
            [
                MeshTask(id: "recent", title: "recent", status: .failed, completedAt: server - 3_600),
                MeshTask(id: "old", title: "old", status: .failed, completedAt: server - 25 * 3_600),
            ], clock: ahead, now: t0)
        #expect(store.items.map(\.id) == ["failed:recent"])
        #expect(store.items[0].since == t0 - 3_600)
    }

    /// History (a cached or replayed status event, no arrival time) counts by the same window
    /// as a list: a failure of three days ago is not waiting on anyone.
    @Test func aReplayedOldFailureIsHistory() {
        let store = NeedsYouStore()
        let old = TaskEvent(
            eventID: 1, taskID: "t", seq: 4, type: .status, ts: t0 - 3 * 86_400,
            payload: .status(status: .failed, previous: .running, reason: nil))
        store.events([old], clock: .zero, now: t0)
        #expect(store.items.isEmpty)
        #expect(store.version == 0)
    }

    @Test func questionsFollowTheListButKeepWhatArrivedLiveAfterIt() {
        let hub = StoreHub()
        let asked = Directive(
            id: "d1", title: "Deploy", status: "open", hasPendingQuestion: true,
            pendingQuestion: SupervisorQuestion(id: "q1", text: "Which region?", askedAt: t0))
        let now = Date()
        hub.apply(.list(.directives(pendingOnly: true), .directives([asked]), fetchedAt: now - 10, fromCache: false))
        #expect(hub.needsYou.items.map(\.id) == ["question:q1"])
        #expect(hub.needsYou.items[0].link == DeepLink(.directive, "d1"))
        // A question asked live after the next read began, then that read without either.
        hub.apply(.events([event("t9", 1, .supervisorQuestion(questionID: "q2", text: "Proceed?", directiveID: "d2"))]))
        hub.apply(.list(.directives(pendingOnly: true), .directives([]), fetchedAt: now - 5, fromCache: false))
        #expect(hub.needsYou.items.map(\.id) == ["question:q2"])
        hub.apply(.list(.directives(pendingOnly: true), .directives([]), fetchedAt: now + 60, fromCache: false))
        #expect(hub.needsYou.items.isEmpty)
    }

    @Test func anOfflineDaemonNeedsYouOnlyWhileItHoldsRunningTasks() {
        let hub = StoreHub()
        let daemons = [
            Daemon(id: "a", hostname: "gpu-1", status: .offline, lastHeartbeat: t0, runningTasks: 2),
            Daemon(id: "b", status: .offline, runningTasks: 0),
            Daemon(id: "c", status: .online, runningTasks: 3),
        ]
        hub.apply(.list(.daemons, .daemons(daemons), fetchedAt: t0, fromCache: false))
        #expect(hub.needsYou.items.map(\.id) == ["offline:a"])
        #expect(hub.needsYou.items[0].text == "gpu-1")
        hub.apply(.list(.daemons, .daemons([Daemon(id: "a", status: .online)]), fetchedAt: t0, fromCache: false))
        #expect(hub.needsYou.items.isEmpty)
    }

    @Test func oldestFirstAndBoundedPerKind() {
        let store = NeedsYouStore()
        let n = NeedsYouRules.keptPerKind + 40
        store.events(
            (0..<n).map {
                event("t\($0)", 1, .status(status: .failed, previous: nil, reason: nil), at: t0 + Double($0))
            },
            clock: .zero, now: t0 + Double(n))
        #expect(store.items.count == NeedsYouRules.keptPerKind)
        #expect(store.items.first?.id == "failed:t40")
        #expect(store.items.map { $0.since! } == store.items.map { $0.since! }.sorted())
    }

    @Test func anotherServerForgetsEverything() {
        let hub = StoreHub()
        hub.apply(.events([event("t", 1, .status(status: .failed, previous: nil, reason: nil))]))
        hub.forgetServer()
        #expect(hub.needsYou.items.isEmpty)
    }
}

/// Acknowledgements through a real SQLite file: kept across opening, damaged rows skipped,
/// bounded.
@Suite struct CacheAcknowledgedTests {
    let dir = CacheTempDir()

    @Test func keptAcrossOpeningAndForgottenOnRequest() throws {
        let at = Date(timeIntervalSince1970: 1_900_000_000)
        do {
            let cache = try CacheStore.open(file: dir.databaseFile).store
            try cache.setAcknowledged([("failed:a", at), ("gate:b", at + 1)])
            try cache.setAcknowledged([("gate:b", nil)])
            cache.close()
        }
        let cache = try CacheStore.open(file: dir.databaseFile).store
        #expect(try cache.acknowledged() == ["failed:a": at])
    }

    @Test func damagedRowsAreSkippedAndTheTableIsBounded() throws {
        let cache = try CacheStore.open(file: dir.databaseFile).store
        let base = Date(timeIntervalSince1970: 1_000_000)
        let many = (0..<(CacheStore.acknowledgedKept + 5)).map { ("failed:t\($0)", Optional(base + Double($0))) }
        try cache.setAcknowledged(many)
        try cache.withDatabase { db in
            try db.exec(
                "INSERT INTO acknowledged (item, at) VALUES ('', 5e9), ('\(String(repeating: "x", count: 400))', 5e9)")
        }
        let kept = try cache.acknowledged()
        #expect(kept.count <= CacheStore.acknowledgedKept)
        #expect(kept["failed:t0"] == nil)
        #expect(kept["failed:t\(CacheStore.acknowledgedKept + 4)"] != nil)
        #expect(kept[""] == nil)
    }
}
