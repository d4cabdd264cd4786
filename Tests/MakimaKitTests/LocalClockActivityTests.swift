import Foundation
import Synchronization
import Testing

@testable import MakimaKit

/// The activity history and notifications on our clock, whatever the server's: live events
/// count at their arrival, history at its `ts` corrected by the server's offset.
@Suite struct LocalClockActivityTests {
    let dir = CacheTempDir()

    private func events(ts: Date, arrivedAt: Date?) -> [TaskEvent] {
        var out = (1...5).map { seq in
            TaskEvent(
                eventID: Int64(seq), taskID: "a", seq: seq, type: .output, ts: ts,
                payload: .output(text: "piece \(seq)", stream: "assistant"), arrivedAt: arrivedAt)
        }
        out.append(
            TaskEvent(
                eventID: 6, taskID: "a", seq: 6, type: .status, ts: ts,
                payload: .status(status: .failed, previous: .running, reason: nil), arrivedAt: arrivedAt))
        return out
    }

    @Test(arguments: [-3_600.0, 2 * 86_400.0])
    func liveEventsCountWhenTheyArrive(serverOffset: TimeInterval) throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        let now = Date()
        try store.appendEvents(events(ts: now.addingTimeInterval(serverOffset), arrivedAt: now))
        let history = try store.activity(now: now)
        #expect(history.lastHour == (5, 0, 1))
        #expect(history.outputPerMinute().last == 5)
        #expect(history.finishedPerHour().failed.last == 1)
    }

    @Test(arguments: [-3_600.0, 2 * 86_400.0])
    func historyCountsAtItsTimeOnOurClock(serverOffset: TimeInterval) throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        let now = Date()
        // Ten minutes ago on our clock, stamped on the server's.
        let ts = now.addingTimeInterval(serverOffset - 600)
        try store.appendEvents(events(ts: ts, arrivedAt: nil), serverClock: ClockOffset(seconds: serverOffset))
        let history = try store.activity(now: now)
        #expect(history.lastHour == (5, 0, 1))
        #expect(history.outputPerMinute()[49...51].reduce(0, +) == 5)
    }

    @Test func notificationsAreTimedOnOurClock() {
        var policy = NotificationPolicy()
        let now = Date()
        let failed = events(ts: now.addingTimeInterval(-3_600), arrivedAt: now)
        policy.arrived(failed)
        let notes = policy.notifications(for: failed, receivedAt: now, serverClock: ClockOffset(seconds: -3_600))
        #expect(notes.map(\.kind) == [.taskFailed])
        #expect(notes.first?.at == now)
    }

    @Test func onlyLiveEventsAreStampedWithTheirArrival() throws {
        let arrival = Date(timeIntervalSince1970: 1_800_000_000)
        let applied = AppliedLog()
        let pipeline = TaskEventPipeline(
            lastSeen: [:], fetchPage: { _, _, _ in throw APIError.transport("no REST here") },
            onApplied: { applied.add($0) }, now: { arrival })
        defer { pipeline.stop() }
        _ = pipeline.resyncRequest()
        pipeline.receive(frame: Self.frame(seq: 1))  // a replay
        pipeline.receive(frame: #"{"type":"resync.done"}"#)
        pipeline.receive(frame: Self.frame(seq: 2))  // live
        #expect(applied.events.map(\.arrivedAt) == [nil, arrival])
    }

    static func frame(seq: Int) -> String {
        #"{"event_id":\#(seq),"task_id":"t","seq":\#(seq),"type":"task.output","ts":"2026-12-01T20:13:30Z","data":{"text":"x","stream":"assistant"}}"#
    }
}

private final class AppliedLog: Sendable {
    private let log = Mutex<[TaskEvent]>([])
    func add(_ e: [TaskEvent]) { log.withLock { $0 += e } }
    var events: [TaskEvent] { log.withLock { $0 } }
}
