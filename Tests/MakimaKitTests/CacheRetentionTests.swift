import Foundation
import Testing

@testable import MakimaKit

/// The cache's retention: finished tasks age out, the file stays under its total cap (with
/// every task's newest event kept for resync), freed pages leave the file, and the policy comes
/// from the config file.
@Suite struct CacheRetentionTests {
    let dir = CacheTempDir()

    static func output(_ task: String, _ seqs: ClosedRange<Int>, bytes: Int = 500) -> [TaskEvent] {
        let text = String(repeating: "x", count: bytes - 1) + "\n"
        return seqs.map {
            TaskEvent(
                eventID: Int64($0), taskID: task, seq: $0, type: .output,
                payload: .output(text: text, stream: "assistant"))
        }
    }

    static func status(_ task: String, seq: Int, _ s: TaskStatus) -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: task, seq: seq, type: .status,
            payload: .status(status: s, previous: nil, reason: nil))
    }

    /// A batch larger than a task's window leaves its oldest events out (they would be pruned
    /// at once); a final status among them still marks the task finished.
    @Test func aStatusAmongTheEventsLeftOutStillMarksTheTaskFinished() throws {
        let policy = CacheRetention(eventsPerTask: 10, finishedTaskAge: 3_600, maxBytes: 64 << 20)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        let batch = Self.output("done", 1...4) + [Self.status("done", seq: 5, .completed)] + Self.output("done", 6...30)
        #expect(try store.appendEvents(batch) == 30)
        #expect(try store.events(taskID: "done", limit: 100).map(\.seq) == Array(21...30))
        #expect(try store.prune(now: Date().addingTimeInterval(3_700)).finishedTasksRemoved == 1)
    }

    @Test func finishedTasksPastTheAgeAreDroppedOthersKept() throws {
        let policy = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 3_600, maxBytes: 64 << 20)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        try store.appendEvents(Self.output("done", 1...20) + [Self.status("done", seq: 21, .completed)])
        try store.appendEvents(Self.output("running", 1...20) + [Self.status("running", seq: 21, .running)])
        try store.appendEvents(Self.output("silent", 1...20))

        // An hour later less a minute: nothing is old enough.
        #expect(try store.prune(now: Date().addingTimeInterval(3_540)).finishedTasksRemoved == 0)
        #expect(try store.eventCount(taskID: "done") == 21)

        let later = try store.prune(now: Date().addingTimeInterval(3_700))
        #expect(later.finishedTasksRemoved == 1)
        #expect(later.eventsRemoved == 21)
        #expect(try store.eventCount(taskID: "done") == 0)
        #expect(try store.eventCount(taskID: "running") == 21)
        #expect(try store.eventCount(taskID: "silent") == 20)

        // A task that finished and then had more events (a retry) is running again.
        try store.appendEvents(Self.output("again", 1...5) + [Self.status("again", seq: 6, .failed)])
        try store.appendEvents([Self.status("again", seq: 7, .running)])
        #expect(try store.prune(now: Date().addingTimeInterval(7_200)).finishedTasksRemoved == 0)
    }

    /// 150 tasks × 1 MB used to grow the file to ~200 MB: the cap holds it, and every task
    /// keeps its newest event so a resync after restart still starts where it was.
    @Test func theTotalCapHoldsAndEveryTaskKeepsItsNewestEvent() throws {
        let cap = 2 << 20
        let policy = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 86_400, maxBytes: cap)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        for t in 0..<60 {
            try store.appendEvents(Self.output("t\(t)", 1...100, bytes: 1_000))
            let used = try store.withDatabase { db in try CacheSpaceManager.usedBytes(db) }
            #expect(used <= cap, "after task \(t): \(used) bytes in use")
        }
        let seen = try store.lastSeenSeqs()
        #expect(seen.count == 60)
        #expect(seen.values.allSatisfy { $0 == 100 })
        // The most recently active task is the last one trimmed: it is still whole.
        #expect(try store.eventCount(taskID: "t59") == 100)
        #expect(try store.eventCount(taskID: "t0") == 1)
        #expect(try store.contiguousSeqs()["t0"] == 100)
    }

    /// The pages a large removal frees leave the file (`auto_vacuum = INCREMENTAL`).
    @Test func largeRemovalsGiveTheirPagesBack() throws {
        let policy = CacheRetention(eventsPerTask: 20_000, finishedTaskAge: 60, maxBytes: 256 << 20)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        for t in 0..<4 {
            try store.appendEvents(
                Self.output("f\(t)", 1...3_000, bytes: 1_000) + [Self.status("f\(t)", seq: 3_001, .completed)])
        }
        let before = try store.pageCount()
        let result = try store.prune(now: Date().addingTimeInterval(120))
        #expect(result.finishedTasksRemoved == 4)
        #expect(result.pagesGivenBack > 0)
        #expect(try store.pageCount() * 4 < before)
    }

    @Test func policyComesFromTheConfigSettings() throws {
        let set = CacheRetention(settings: [
            "cache": .object(["max_mb": .number(32), "finished_task_days": .number(2), "events_per_task": .number(500)])
        ])
        #expect(set == CacheRetention(eventsPerTask: 500, finishedTaskAge: 2 * 86_400, maxBytes: 32 << 20))
        #expect(set.taskBytes == 64 << 20, "the task table's budget is twice max_mb unless set")
        let tasks = CacheRetention(settings: ["cache": .object(["tasks_max_mb": .number(300)])])
        #expect(tasks.taskBytes == 300 << 20 && tasks.maxBytes == CacheRetention.standard.maxBytes)
        #expect(CacheRetention.standard.taskBytes == 128 << 20)
        let bad = CacheRetention(settings: [
            "cache": .object([
                "max_mb": .string("lots"), "finished_task_days": .number(-1), "events_per_task": .number(.nan),
            ])
        ])
        #expect(bad == .standard)
        #expect(CacheRetention(settings: [:]) == .standard)

        // Read from the config file the environment points at.
        let configDir = dir.databaseFile.deletingLastPathComponent().appendingPathComponent("config").path
        let config = AppConfig(settings: ["cache": .object(["max_mb": .number(16)])])
        try ConfigStore(location: ConfigLocation(directory: configDir)).save(config)
        let read = CacheRetention.configured(environment: ["MAKIMA_CONFIG_DIR": configDir])
        #expect(read.maxBytes == 16 << 20)
        #expect(read.eventsPerTask == CacheRetention.standard.eventsPerTask)
    }
}
