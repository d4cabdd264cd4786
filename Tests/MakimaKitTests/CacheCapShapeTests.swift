import Foundation
import Testing

@testable import MakimaKit

/// The cap holds whatever the shape of the data: many tasks with one large event each used
/// to pass it (pruning keeps every task's newest event), 600 × 1 MB making an 810 MB file
/// against a 64 MB cap. Oversized events are cut with a marker; whole tasks go, oldest first.
@Suite struct CacheCapShapeTests {
    let dir = CacheTempDir()
    static let cap = 4 << 20

    static func big(_ task: String, seq: Int = 1, bytes: Int) -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: task, seq: seq, type: .output,
            payload: .output(text: String(repeating: "y", count: bytes - 1) + "\n", stream: "assistant"))
    }

    private func fileBytes() throws -> Int {
        let size = try FileManager.default.attributesOfItem(atPath: dir.databaseFile.path)[.size] as? NSNumber
        return size?.intValue ?? 0
    }

    @Test func manyTasksWithOneLargeEventEachStayUnderTheCap() throws {
        let policy = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 86_400, maxBytes: Self.cap)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        for t in 0..<600 {
            try store.appendEvents([Self.big("t\(t)", bytes: 256 << 10)])
            let used = try store.withDatabase { db in try CacheStore.usedBytes(db) }
            #expect(used <= Self.cap, "after task \(t): \(used) bytes in use")
            if used > Self.cap { break }
        }
        #expect(try fileBytes() <= Self.cap + (1 << 20))
        // The newest task is there, cut to the per-event size with a marker; the oldest went.
        let newest = try store.events(taskID: "t599")
        #expect(newest.count == 1)
        guard case .output(let text, _)? = newest.first?.payload else {
            Issue.record("the newest task's event is not cached")
            return
        }
        #expect(text.utf8.count <= policy.maxEventBytes)
        #expect(text.hasPrefix("yyyy"))
        #expect(text.hasSuffix("more bytes of this event are not kept in the offline cache]\n"))
        #expect(try store.eventCount(taskID: "t0") == 0)
        #expect(store.integrityCheck())
    }

    @Test func oneBatchOfManyLargeEventsStaysUnderTheCap() throws {
        let policy = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 86_400, maxBytes: Self.cap)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        try store.appendEvents((0..<400).map { Self.big("b\($0)", bytes: 128 << 10) })
        let used = try store.withDatabase { db in try CacheStore.usedBytes(db) }
        #expect(used <= Self.cap)
        #expect(try store.eventCount(taskID: "b399") == 1)
        // Statuses and questions are cut the same way.
        let reason = String(repeating: "r", count: 1 << 20)
        try store.appendEvents([
            TaskEvent(
                eventID: 9, taskID: "s", seq: 1, type: .status,
                payload: .status(status: .failed, previous: nil, reason: reason))
        ])
        guard case .status(_, _, let kept)? = try store.events(taskID: "s").first?.payload else {
            Issue.record("status not cached")
            return
        }
        #expect((kept?.utf8.count ?? 0) <= policy.maxEventBytes)
        #expect(kept?.contains("not kept in the offline cache") == true)
    }

    /// Pruning removes events only: a list snapshot larger than the cap would hold the file
    /// over it for good, and every append would then prune every task's events away.
    @Test func aHugeListSnapshotKeepsToAQuarterOfTheCap() throws {
        let policy = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 86_400, maxBytes: Self.cap)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        let title = String(repeating: "t", count: 64 << 10)
        let tasks = (0..<200).map { MeshTask(id: "big\($0)", title: title, status: .running) }
        try store.replace(tasks, in: .tasks, query: "", fetchedAt: CacheFixtures.t0)
        let used = try store.withDatabase { db in try CacheStore.usedBytes(db) }
        #expect(used <= Self.cap / 4 + (1 << 20))
        let kept = try #require(try store.load(MeshTask.self, from: .tasks, query: ""))
        #expect(!kept.items.isEmpty && kept.items.count < 200)
        #expect(kept.items.first?.id == "big0")
        try store.appendEvents([Self.big("after", bytes: 1_000)])
        #expect(try store.eventCount(taskID: "after") == 1)
    }
}
