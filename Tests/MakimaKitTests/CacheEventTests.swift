import Foundation
import Testing

@testable import MakimaKit

/// Task events: one per (task, seq), newest 2000 kept, resync positions from max(seq).
@Suite struct CacheEventTests {
    let dir = CacheTempDir()

    private func openStore() throws -> CacheStore {
        try CacheStore.open(file: dir.databaseFile).store
    }

    @Test func duplicatesByTaskAndSeqAreDropped() throws {
        let store = try openStore()
        #expect(try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...10)) == 10)
        // Overlapping replay (as after a resync), with different event ids: only 11...15 are new.
        #expect(try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 5...15, eventIDBase: 1_000)) == 5)
        #expect(try store.appendEvents(CacheFixtures.outputEvents(task: "b", seqs: 5...6)) == 2)
        let events = try store.events(taskID: "a")
        #expect(events.map(\.seq) == Array(1...15))
        // The first copy of a seq wins.
        #expect(events.first { $0.seq == 7 }?.eventID == 7)
        #expect(try store.eventCount(taskID: "b") == 2)
    }

    @Test func everyPayloadKindRoundTrips() throws {
        let store = try openStore()
        let t0 = CacheFixtures.t0
        let sent = [
            TaskEvent(
                eventID: 1, taskID: "t", seq: 1, type: .output, ts: t0,
                payload: .output(text: "\u{1B}[1;32mok\u{1B}[0m done\n", stream: "tool")),
            TaskEvent(
                eventID: 2, taskID: "t", seq: 2, type: .status, ts: t0.addingTimeInterval(1),
                payload: .status(status: .failed, previous: .running, reason: "exit 1")),
            TaskEvent(
                eventID: 3, taskID: "t", seq: 3, type: .completionGate, ts: nil,
                payload: .completionGate(
                    ready: true, summary: "all green", body: "<COMPLETION_GATE>ready</COMPLETION_GATE>")),
            TaskEvent(
                eventID: 4, taskID: "t", seq: 4, type: .supervisorQuestion, ts: t0,
                payload: .supervisorQuestion(questionID: "q9", text: "Deploy?", directiveID: "r1")),
            TaskEvent(
                eventID: 5, taskID: "t", seq: 5, type: TaskEventType(rawValue: "task.heartbeat"), ts: t0,
                payload: .unknown),
        ]
        try store.appendEvents(sent)
        #expect(try store.events(taskID: "t") == sent)
    }

    @Test func pruningKeepsExactlyTheNewest2000PerTask() throws {
        let store = try openStore()
        #expect(store.eventsKeptPerTask == 2_000)
        // Uneven batches, as a stream delivers them.
        var next = 1
        for size in [1, 700, 1_299, 3, 497] {
            try store.appendEvents(CacheFixtures.outputEvents(task: "big", seqs: next..<(next + size)))
            next += size
        }
        try store.appendEvents(CacheFixtures.outputEvents(task: "small", seqs: 1...100))
        let kept = try store.events(taskID: "big", limit: 10_000)
        #expect(kept.count == 2_000)
        #expect(kept.first?.seq == next - 2_000)
        #expect(kept.last?.seq == next - 1)
        #expect(try store.eventCount(taskID: "small") == 100)
    }

    @Test func theWindowIsTheNewest2000SeqNumbersWhenSeqsHaveHoles() throws {
        let store = try openStore()
        let evens = CacheFixtures.outputEvents(task: "holes", seqs: stride(from: 2, through: 6_000, by: 2))
        #expect(try store.appendEvents(evens) == 3_000)
        let kept = try store.events(taskID: "holes", limit: 10_000)
        #expect(kept.map(\.seq) == Array(stride(from: 4_002, through: 6_000, by: 2)))
    }

    /// Events below a task's window in the same call are left out, and counted as new only
    /// when they were not cached already; other tasks in the call keep their own windows.
    @Test func eventsBelowTheWindowOfTheSameCallAreCountedNotWritten() throws {
        let store = try openStore()
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...100))
        let mixed =
            CacheFixtures.outputEvents(task: "a", seqs: 1...3_000) + CacheFixtures.outputEvents(task: "b", seqs: 1...5)
        #expect(try store.appendEvents(mixed) == 2_900 + 5)
        #expect(try store.events(taskID: "a", limit: 10_000).map(\.seq) == Array(1_001...3_000))
        #expect(try store.eventCount(taskID: "b") == 5)
        // Out of order and interleaved with another task: the same outcome.
        let shuffled =
            CacheFixtures.outputEvents(task: "c", seqs: 1...2_500).reversed()
            + CacheFixtures.outputEvents(task: "d", seqs: 1...3)
        #expect(try store.appendEvents(Array(shuffled)) == 2_503)
        #expect(try store.events(taskID: "c", limit: 10_000).map(\.seq) == Array(501...2_500))
        #expect(try store.lastSeenSeqs()["c"] == 2_500)
    }

    @Test func oneCallLargerThanATransactionIsSplitAndStillPruned() throws {
        let store = try openStore()
        let count = CacheStore.maxEventsPerTransaction * 2 + 123
        #expect(try store.appendEvents(CacheFixtures.outputEvents(task: "burst", seqs: 1...count)) == count)
        let kept = try store.events(taskID: "burst", limit: 10_000)
        #expect(kept.map(\.seq) == Array((count - 1_999)...count))
    }

    @Test func lastSeenIsTheHighestSeqPerTaskAndSurvivesPruningAndReopen() throws {
        let store = try openStore()
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...2_500))
        try store.appendEvents(CacheFixtures.outputEvents(task: "b", seqs: 1...3))
        #expect(try store.lastSeenSeqs() == ["a": 2_500, "b": 3])
        store.close()
        #expect(try openStore().lastSeenSeqs() == ["a": 2_500, "b": 3])
    }

    @Test func contiguousSeqsStopAtTheFirstHole() throws {
        let store = try openStore()
        try store.appendEvents(CacheFixtures.outputEvents(task: "whole", seqs: 1...30))
        try store.appendEvents(CacheFixtures.outputEvents(task: "holed", seqs: [1, 2, 3, 5, 6, 9]))
        #expect(try store.lastSeenSeqs() == ["whole": 30, "holed": 9])
        #expect(try store.contiguousSeqs() == ["whole": 30, "holed": 3])
        // The hole filled by a resync: the run now reaches the next hole.
        try store.appendEvents(CacheFixtures.outputEvents(task: "holed", seqs: 3...6))
        #expect(try store.contiguousSeqs()["holed"] == 6)
    }

    @Test func pagesAfterASeqAndTheNewestTail() throws {
        let store = try openStore()
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...50))
        #expect(try store.events(taskID: "a", afterSeq: 10, limit: 5).map(\.seq) == [11, 12, 13, 14, 15])
        #expect(try store.events(taskID: "a", afterSeq: 50).isEmpty)
        #expect(try store.latestEvents(taskID: "a", limit: 3).map(\.seq) == [48, 49, 50])
        #expect(try store.events(taskID: "unknown").isEmpty)
        let texts = try store.events(taskID: "a", afterSeq: 48).map(\.payload)
        #expect(
            texts == [
                .output(text: CacheFixtures.expectedText(task: "a", seq: 49), stream: "assistant"),
                .output(text: CacheFixtures.expectedText(task: "a", seq: 50), stream: "assistant"),
            ])
    }

    @Test func aSmallerKeepLimitIsHonoured() throws {
        let store = try CacheStore.open(file: dir.databaseFile, eventsKeptPerTask: 10).store
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...25))
        #expect(try store.events(taskID: "a").map(\.seq) == Array(16...25))
    }
}
