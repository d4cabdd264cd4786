import Foundation
import Testing

@testable import MakimaKit

/// The full-text index of the cached output, on a real SQLite file: kept current by appends
/// and pruning, built again when missing or damaged, and user text never read as FTS syntax.
@Suite struct OutputSearchIndexTests {
    let dir = CacheTempDir()

    private func openStore(keep: Int? = nil) throws -> CacheStore {
        try CacheStore.open(file: dir.databaseFile, eventsKeptPerTask: keep).store
    }

    private func output(_ task: String, _ seq: Int, _ text: String) -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: task, seq: seq, type: .output, ts: CacheFixtures.t0,
            payload: .output(text: text, stream: "assistant"))
    }

    @Test func appendedOutputIsFoundNewestFirst() throws {
        let store = try openStore()
        try store.appendEvents([
            output("a", 1, "compiling \u{1B}[1mMakimaKit\u{1B}[0m\nlinking done\n"),
            output("a", 2, "error: no such module\n"),
        ])
        try store.appendEvents([output("b", 1, "another ERROR here\n")])
        let hits = try store.searchOutput("error")
        #expect(hits.map(\.taskID) == ["b", "a"])
        #expect(hits.map(\.line) == ["another ERROR here", "error: no such module"])
        #expect(hits.map(\.seq) == [1, 2])
        // SGR is not indexed: the plain word is found, and the matching line is the one shown.
        #expect(try store.searchOutput("makimakit").map(\.line) == ["compiling MakimaKit"])
        #expect(try store.searchOutput("zzz-absent").isEmpty)
    }

    @Test func pruningRemovesLinesFromTheIndex() throws {
        let store = try openStore(keep: 3)
        try store.appendEvents((1...3).map { output("a", $0, "needle \($0)\n") })
        #expect(try store.searchOutput("needle").count == 3)
        // Two more push seqs 1 and 2 out of the window: their rows leave the index too.
        try store.appendEvents((4...5).map { output("a", $0, "needle \($0)\n") })
        #expect(try store.searchOutput("needle").map(\.seq) == [5, 4, 3])
        #expect(try store.searchIndexCount() == 3)
        // Pruning a finished task by age empties it from the index.
        try store.appendEvents([
            TaskEvent(
                eventID: 9, taskID: "a", seq: 6, type: .status, ts: CacheFixtures.t0,
                payload: .status(status: .completed, previous: .running, reason: nil))
        ])
        try store.prune(now: Date().addingTimeInterval(30 * 86_400))
        #expect(try store.searchOutput("needle").isEmpty)
        #expect(try store.searchIndexCount() == 0)
    }

    @Test func olderOutputCachedLaterIsIndexedToo() throws {
        let store = try openStore()
        try store.appendEvents((10...12).map { output("a", $0, "needle \($0)\n") })
        #expect(try store.searchOutput("needle").map(\.seq) == [12, 11, 10])
        // Output from before what was cached (a history fetched when the view opens).
        try store.appendEvents((1...2).map { output("a", $0, "needle \($0)\n") })
        #expect(try store.searchOutput("needle").map(\.seq) == [12, 11, 10, 2, 1])
        #expect(try store.searchIndexCount() == 5)
    }

    @Test func outputPrunedBeforeTheCatchUpIsNeverIndexed() throws {
        let store = try openStore(keep: 2)
        // Appends within a second of each other: no catch-up between them after the first.
        for seq in 1...6 { try store.appendEvents([output("a", seq, "needle \(seq)\n")]) }
        #expect(try store.searchOutput("needle").map(\.seq) == [6, 5])
        #expect(try store.searchIndexCount() == 2)
    }

    /// A saved task list indexes its titles, not its plans (`CacheStore.titlesOnly`).
    @Test func titlesAreSearchedAndReplaced() throws {
        let store = try openStore()
        let bridge = CacheBridge(cache: store)
        let all = ListQuery.tasks(status: nil, contractID: nil)
        try bridge.store(all, .tasks(CacheFixtures.tasks), fetchedAt: CacheFixtures.t0)
        let hit = try #require(try store.searchOutput("write the cache").first)
        #expect(hit.taskID == "t1" && hit.seq == 0)
        #expect(try store.searchOutput("tables").isEmpty)
        var renamed = CacheFixtures.tasks
        renamed[0].title = "Renamed"
        try bridge.store(all, .tasks(renamed), fetchedAt: CacheFixtures.t0)
        #expect(try store.searchOutput("write the cache").isEmpty)
        #expect(try store.searchOutput("renamed").map(\.taskID) == ["t1"])
    }

    @Test func ftsSyntaxInThePatternIsPlainText() throws {
        let store = try openStore()
        let lines = [
            "say \"hi\" AND NOT bye", "col:value OR x*", "(a) -b +c ^d", "50% of_it \\ done", "NEAR(a b)",
        ]
        try store.appendEvents(lines.enumerated().map { output("t", $0.offset + 1, $0.element + "\n") })
        for (i, line) in lines.enumerated() {
            #expect(try store.searchOutput(line).map(\.seq) == [i + 1], "\(line)")
        }
        // Operators alone, quotes alone, short patterns (LIKE) with its wildcards.
        #expect(try store.searchOutput("\"").map(\.seq) == [1])
        #expect(try store.searchOutput("AND").map(\.seq) == [1])
        #expect(try store.searchOutput("x*").map(\.seq) == [2])
        #expect(try store.searchOutput("%").map(\.seq) == [4])
        #expect(try store.searchOutput("_i").map(\.seq) == [4])
        #expect(try store.searchOutput("*").map(\.seq) == [2])
        #expect(try store.searchOutput("\\").map(\.seq) == [4])
    }

    @Test func resultsAreBounded() throws {
        let store = try openStore()
        try store.appendEvents(CacheFixtures.outputEvents(task: "many", seqs: 1...1_200))
        #expect(try store.searchOutput("line").count == CacheStore.maxSearchHits)
        #expect(try store.searchOutput("line", limit: 10).map(\.seq) == Array((1_191...1_200).reversed()))
    }

    @Test func aMissingIndexIsBuiltAgainBeforeUse() throws {
        do {
            let store = try openStore()
            try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...20))
            try store.withDatabase { db in
                try db.exec("DROP TRIGGER output_search_prune; DROP TABLE output_search; DROP TABLE search_tasks")
            }
            store.close()
        }
        let store = try openStore()
        #expect(try store.searchOutput("a line 7").map(\.seq) == [7])
        #expect(try store.searchIndexCount() == 20)
        #expect(try store.verifySearchIndex())
    }

    @Test func aDamagedIndexIsBuiltAgain() throws {
        let store = try openStore()
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 1...50))
        try store.withDatabase { db in try db.exec("UPDATE output_search_data SET block = x'00ff00ff00ff' WHERE id > 1")
        }
        #expect(try store.verifySearchIndex() == false)
        #expect(try store.verifySearchIndex())
        #expect(try store.searchOutput("a line 42").map(\.seq) == [42])
        // Damaged again: the search itself notices, rebuilds and answers.
        try store.withDatabase { db in try db.exec("UPDATE output_search_data SET block = x'00ff00ff00ff' WHERE id > 1")
        }
        #expect(try store.searchOutput("a line 42").map(\.seq) == [42])
    }

    @Test func activityCountsOutputAndFinishedTasksPerMinute() throws {
        let store = try openStore()
        let now = Date()
        let minute = ActivityMinute.minute(of: now)
        var events = (1...5).map { seq in
            TaskEvent(
                eventID: Int64(seq), taskID: "a", seq: seq, type: .output, ts: now,
                payload: .output(text: "x\n", stream: "assistant"))
        }
        events.append(
            TaskEvent(
                eventID: 6, taskID: "a", seq: 6, type: .status, ts: now,
                payload: .status(status: .failed, previous: .running, reason: nil)))
        try store.appendEvents(events)
        try store.appendEvents(events)  // a replay: nothing new, nothing counted
        try store.replace(CacheFixtures.daemons, in: .daemons, query: "", fetchedAt: now)
        let history = try store.activity(now: now)
        #expect(history.minutes == [ActivityMinute(minute: minute, output: 5, failed: 1, daemonsOnline: 1)])
        #expect(history.outputPerMinute().last == 5)
        #expect(history.finishedPerHour().failed.last == 1)
        #expect(history.lastHour == (5, 0, 1))
        // Kept across a restart.
        store.close()
        #expect(try openStore().activity(now: now).lastHour == (5, 0, 1))
    }
}
