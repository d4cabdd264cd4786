import Foundation
import Testing

@testable import MakimaKit

/// `grep -C`'s groups on a real SQLite file: each hit with the lines around it from the
/// cache's assembled lines, touching windows joined, a title hit alone, lines the cache no
/// longer holds left out.
@Suite struct OutputContextTests {
    let dir = CacheTempDir()

    private func output(_ task: String, _ seq: Int, _ text: String) -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: task, seq: seq, type: .output, ts: CacheFixtures.t0,
            payload: .output(text: text, stream: "tool"))
    }

    private func shown(_ groups: [OutputHitGroup]) -> [String] {
        groups.map { g in
            g.taskID + " " + g.lines.map { "\($0.number)\($0.isHit ? ":" : "-")\($0.text)" }.joined(separator: " ")
        }
    }

    @Test func hitsComeWithTheirLinesGroupedNewestFirst() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        let a = (1...12).map { $0 == 3 || $0 == 6 || $0 == 11 ? "needle \($0)  " : "line \($0)" }
        try store.appendEvents([output("a", 1, a.joined(separator: "\n") + "\n")])
        try store.appendEvents([output("b", 1, "b one\nb needle\n")])
        try CacheBridge(cache: store).store(
            .tasks(status: nil, contractID: nil),
            .tasks([MeshTask(id: "c", title: "the needle task", status: .running)]),
            fetchedAt: CacheFixtures.t0)
        let hits = try store.searchOutput("needle")
        // The output lines are indexed at the search's catch-up, after c's title was: b is the
        // task the index took last.
        #expect(hits.map(\.lineNumber) == [2, 0, 11, 6, 3], "\(hits)")
        #expect(
            shown(try store.contextGroups(for: hits, context: 1)) == [
                "b 1-b one 2:b needle",
                "c 0:the needle task",
                "a 10-line 10 11:needle 11 12-line 12",
                // 3's window (2…4) and 6's (5…7) touch: one group.
                "a 2-line 2 3:needle 3 4-line 4 5-line 5 6:needle 6 7-line 7",
            ])
        #expect(
            shown(try store.contextGroups(for: hits, context: 0)).suffix(3) == [
                "a 11:needle 11", "a 6:needle 6", "a 3:needle 3",
            ])
        // With 2, 11's window (9…13) touches 6's (4…8) too.
        #expect(OutputHitGroup.windows(hits, context: 2).map(\.lines) == [1...4, 0...0, 1...13])
    }

    @Test func linesTheCacheNoLongerHoldsAreLeftOut() throws {
        let store = try CacheStore.open(file: dir.databaseFile, eventsKeptPerTask: 3).store
        try store.appendEvents((1...6).map { output("a", $0, $0 == 4 ? "needle\n" : "line \($0)\n") })
        let hits = try store.searchOutput("needle")
        #expect(shown(try store.contextGroups(for: hits, context: 5)) == ["a 4:needle 5-line 5 6-line 6"])
        #expect(try store.outputLines(of: "a", numbered: -3...0).isEmpty)
    }
}
