import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// Output streamed in pieces cut anywhere is kept by the cache as whole lines, and searched by
/// line: a pattern the stream cut is found, each matching line is one hit with its number, and
/// the hit is the whole line. On a real SQLite file.
@Suite struct OutputLinesSearchTests {
    let dir = CacheTempDir()

    /// The output of the streamed task: markdown an agent writes token by token.
    static let report = """
        ## Findings

        The **scheduler** drops `heartbeat` frames when *busy*.

        - the first point: frames queue behind the writer
        - the second point: the writer waits on the store

        ```
        disk usage 91%
        ```

        """

    /// Three lines holding "disk" in one event, the last one a failure.
    static let failure = "checking disk quota\nwriting to disk\nFAILED: disk full\n"

    private func openStore(keep: Int? = nil, file: URL? = nil) throws -> CacheStore {
        try CacheStore.open(file: file ?? dir.databaseFile, eventsKeptPerTask: keep).store
    }

    static func output(_ task: String, _ seq: Int, _ text: String, stream: String = "assistant") -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: task, seq: seq, type: .output, ts: CacheFixtures.t0,
            payload: .output(text: text, stream: stream))
    }

    /// `text` as events of the given piece lengths (the last piece takes the rest), from seq 1.
    static func pieces(_ task: String, _ text: String, lengths: [Int], from seq: Int = 1) -> [TaskEvent] {
        var events: [TaskEvent] = []
        var rest = Substring(text)
        var i = 0
        while !rest.isEmpty {
            let n = i < lengths.count ? lengths[i] : rest.count
            events.append(output(task, seq + events.count, String(rest.prefix(n))))
            rest = rest.dropFirst(n)
            i += 1
        }
        return events
    }

    /// Events appended one call at a time (the open line updated in place across transactions).
    private func stream(_ events: [TaskEvent], into store: CacheStore) throws {
        for event in events { try store.appendEvents([event]) }
    }

    @Test func theReportStreamedInSevenCharacterPiecesIsFoundByLine() throws {
        let store = try openStore()
        let events = Self.pieces("t-3", Self.report, lengths: Array(repeating: 7, count: 100))
        #expect(events.count > 10)
        try stream(events, into: store)
        let heartbeat = try store.searchOutput("heartbeat")
        #expect(heartbeat.map(\.line) == ["The **scheduler** drops `heartbeat` frames when *busy*."])
        #expect(heartbeat.map(\.lineNumber) == [3])
        #expect(heartbeat.map(\.taskID) == ["t-3"])
        // The line begins in the event holding its first character.
        #expect(heartbeat.first?.seq == Self.report.distance(to: "The **") / 7 + 1)
        #expect(try store.searchOutput("scheduler").map(\.lineNumber) == [3])
        #expect(try store.searchOutput("Findings").map(\.line) == ["## Findings"])
        #expect(
            try store.searchOutput("first point").map(\.line) == ["- the first point: frames queue behind the writer"])
        #expect(try store.searchOutput("point").map(\.lineNumber) == [6, 5])
    }

    @Test func everyCutOfTheReportIsFound() throws {
        let store = try openStore()
        // One task per cut offset: the report in two events cut there, appended apart.
        let length = Self.report.count
        for cut in 1..<length {
            try stream(Self.pieces("cut-\(cut)", Self.report, lengths: [cut]), into: store)
        }
        for (pattern, line) in [
            ("heartbeat", "The **scheduler** drops `heartbeat` frames when *busy*."), ("Findings", "## Findings"),
            ("first point", "- the first point: frames queue behind the writer"),
        ] {
            let hits = try store.searchOutput(pattern)
            #expect(hits.count == length - 1, "\(pattern)")
            #expect(Set(hits.map(\.line)) == [line], "\(pattern)")
            #expect(Set(hits.map(\.taskID)) == Set((1..<length).map { "cut-\($0)" }), "\(pattern)")
        }
    }

    @Test func randomPiecesOfOneToFortyAreFound() throws {
        var random = SeededGenerator(state: 24)
        for round in 0..<30 {
            let store = try openStore(file: dir.url.appendingPathComponent("r\(round).sqlite"))
            let lengths = (0..<400).map { _ in Int(random.next() % 40) + 1 }
            let events = Self.pieces("t", Self.report + Self.failure, lengths: lengths)
            // Batches of random sizes too: several pieces in one transaction, or one.
            var i = 0
            while i < events.count {
                let n = Int(random.next() % 4) + 1
                try store.appendEvents(Array(events[i..<min(events.count, i + n)]))
                i += n
            }
            #expect(try store.searchOutput("heartbeat").map(\.lineNumber) == [3], "lengths \(lengths.prefix(20))")
            #expect(try store.searchOutput("first point").map(\.lineNumber) == [5])
            #expect(try store.searchOutput("disk full").map(\.line) == ["FAILED: disk full"])
            store.close()
        }
    }

    @Test func threeMatchingLinesInOneEventAreThreeHits() throws {
        let store = try openStore()
        try store.appendEvents(Self.pieces("t-3", Self.report, lengths: []) + [Self.output("t-3", 2, Self.failure)])
        let hits = try store.searchOutput("disk")
        #expect(hits.map(\.line) == ["FAILED: disk full", "writing to disk", "checking disk quota", "disk usage 91%"])
        #expect(hits.map(\.lineNumber) == [13, 12, 11, 9])
        #expect(hits.map(\.seq) == [2, 2, 2, 1])
    }

    @Test func theOpenLineIsUpdatedInPlaceAndReplacedInTheIndex() throws {
        let store = try openStore()
        try store.appendEvents([Self.output("t", 1, "partial hea")])
        #expect(try store.searchOutput("partial hea").map(\.line) == ["partial hea"])
        try store.appendEvents([Self.output("t", 2, "rtbeat line\nnext")])
        // The search right after the append sees the line as it stands, once.
        #expect(try store.searchOutput("partial").map(\.line) == ["partial heartbeat line"])
        #expect(try store.searchOutput("heartbeat").map(\.lineNumber) == [1])
        #expect(try store.searchOutput("next").map(\.lineNumber) == [2])
        #expect(try store.searchIndexCount() == 2)
    }

    @Test func anotherStreamOrAStatusEndsTheOpenLine() throws {
        let store = try openStore()
        try store.appendEvents([
            Self.output("t", 1, "tool says"), Self.output("t", 2, " abc", stream: "tool"),
            Self.output("t", 3, " more"),
            TaskEvent(
                eventID: 4, taskID: "t", seq: 4, type: .status, ts: CacheFixtures.t0,
                payload: .status(status: .running, previous: .pending, reason: nil)),
        ])
        try store.appendEvents([Self.output("t", 5, "after\n")])
        #expect(try store.searchOutput("says").map(\.line) == ["tool says"])
        #expect(try store.searchOutput("abc").map(\.lineNumber) == [2])
        #expect(try store.searchOutput("more").map(\.lineNumber) == [3])
        #expect(try store.searchOutput("after").map(\.lineNumber) == [4])
    }

    @Test func anEndlessLineIsCutWithAMarker() throws {
        let store = try openStore()
        let piece = String(repeating: "x", count: 1_000)
        try stream((1...40).map { Self.output("t", $0, piece) }, into: store)
        try store.appendEvents([Self.output("t", 41, "tail\nnext line\n")])
        let hit = try #require(try store.searchOutput("xxx").first)
        #expect(hit.line.utf8.count == TaskLines.maxLineBytes + TaskLines.cutMarker.utf8.count)
        #expect(hit.line.hasSuffix(TaskLines.cutMarker))
        #expect(hit.lineNumber == 1)
        #expect(try store.searchOutput("tail").isEmpty)
        #expect(try store.searchOutput("next line").map(\.lineNumber) == [2])
    }

    @Test func aTaskKeepsItsNewestLinesAndLosesThemWithTheTask() throws {
        let store = try openStore(keep: 5)
        // One event of twelve lines: the newest five are kept.
        try store.appendEvents([Self.output("t", 1, (1...12).map { "needle \($0)\n" }.joined())])
        #expect(try store.searchOutput("needle").map(\.lineNumber) == [12, 11, 10, 9, 8])
        #expect(try store.searchIndexCount() == 5)
        try store.appendEvents([
            TaskEvent(
                eventID: 2, taskID: "t", seq: 2, type: .status, ts: CacheFixtures.t0,
                payload: .status(status: .completed, previous: .running, reason: nil))
        ])
        try store.prune(now: Date().addingTimeInterval(30 * 86_400))
        #expect(try store.searchOutput("needle").isEmpty)
        #expect(try store.lineCount(taskID: "t") == 0)
    }

    @Test func olderOutputCachedLaterJoinsItsLines() throws {
        let store = try openStore()
        let events = Self.pieces("t", Self.report, lengths: Array(repeating: 7, count: 100))
        try stream(Array(events[8...]), into: store)
        #expect(try store.searchOutput("Findings").isEmpty)
        // The output's start, fetched later: the task's lines are assembled again, whole.
        try store.appendEvents(Array(events[..<8]))
        #expect(try store.searchOutput("heartbeat").map(\.lineNumber) == [3])
        #expect(try store.searchOutput("Findings").map(\.lineNumber) == [1])
        // A duplicate changes nothing.
        try store.appendEvents([events[3]])
        #expect(try store.searchOutput("heartbeat").map(\.lineNumber) == [3])
    }

    @Test func aBurstLeftOutBelowTheWindowContinuesTheOpenLineWithAGapMarker() throws {
        let store = try openStore(keep: 3)
        try store.appendEvents([Self.output("t", 1, "before the gap ")])
        // Seqs 2...4 are left out below the window of 3: what they held is not known, but they
        // held no newline, so seqs 5...7 are still on the first line.
        try store.appendEvents((2...7).map { Self.output("t", $0, "x\($0) ") })
        #expect(try store.searchOutput("gap").map(\.line) == ["before the gap …x5 x6 x7"])
        #expect(try store.searchOutput("x5").map(\.lineNumber) == [1])
    }

    /// A burst far larger than the window, in one batch of random 1–40-character pieces: the
    /// lines after the left-out events keep their number in the task (they used to be numbered
    /// as if the left-out lines were not there: line 1,000 of a burst cached as line 145).
    @Test func aBurstLeftOutBelowTheWindowKeepsTheLinesNumbers() throws {
        var random = SeededGenerator(state: 5)
        for round in 0..<10 {
            let store = try openStore(keep: 50, file: dir.url.appendingPathComponent("b\(round).sqlite"))
            let lines = (1...600).map { "burst line \($0) of 600: the quick brown fox" }
            let text = lines.map { $0 + "\n" }.joined()
            let lengths = (0..<2_000).map { _ in Int(random.next() % 40) + 1 }
            let events = Self.pieces("t", text, lengths: lengths)
            // A line before the burst, cached first, then the whole burst in one batch.
            try store.appendEvents(Array(events[..<3]))
            try store.appendEvents(Array(events[3...]))
            for n in [600, 599, 590] {
                let hits = try store.searchOutput("burst line \(n) of")
                #expect(hits.map(\.lineNumber) == [n], "round \(round), line \(n): \(hits.map(\.line))")
            }
            store.close()
        }
    }
}

extension String {
    /// Characters before the first `marker`.
    fileprivate func distance(to marker: String) -> Int {
        guard let r = range(of: marker) else { return 0 }
        return self.distance(from: startIndex, to: r.lowerBound)
    }
}

/// A cache written before output was kept as lines (version 6: events only, the index over
/// events) opens with its lines assembled from its events and searched by line.
@Suite struct OutputLinesMigrationTests {
    let dir = CacheTempDir()
    var file: URL { dir.databaseFile }

    /// The index as version 6 made it: one row per output event, pruned with the events.
    static let version6Index = """
        CREATE TABLE search_tasks (
            num INTEGER PRIMARY KEY, task_id TEXT NOT NULL UNIQUE, meta TEXT NOT NULL DEFAULT '',
            unindexed_from INTEGER, indexed_to INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE search_state (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
        CREATE VIRTUAL TABLE output_search USING fts5(text, tokenize = 'trigram', detail = none);
        CREATE TRIGGER output_search_prune AFTER DELETE ON task_events
        WHEN old.type = 'task.output'
            AND old.seq <= (SELECT indexed_to FROM search_tasks WHERE task_id = old.task_id)
        BEGIN
            DELETE FROM output_search
            WHERE rowid = (SELECT num FROM search_tasks WHERE task_id = old.task_id) * 4294967296 + old.seq;
        END;
        """

    /// A version-6 cache holding the report in 7-character events, indexed event by event.
    private func writeVersion6Cache() throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let raw = try SQLiteDatabase(path: file.path)
        for step in CacheSchema.migrations.prefix(6) { try raw.exec(step) }
        try raw.exec(Self.version6Index)
        try raw.exec("INSERT INTO search_tasks (num, task_id, indexed_to) VALUES (1, 't-3', 1000)")
        let events = OutputLinesSearchTests.pieces(
            "t-3", OutputLinesSearchTests.report + OutputLinesSearchTests.failure,
            lengths: Array(repeating: 7, count: 100))
        for event in events {
            guard case .output(let text, _) = event.payload else { continue }
            let json = try CacheStore.encodeJSON(event).replacingOccurrences(of: "'", with: "''")
            try raw.exec(
                "INSERT INTO task_events (task_id, seq, event_id, type, json) VALUES ('t-3', \(event.seq), \(event.eventID), 'task.output', '\(json)')"
            )
            let quoted = text.replacingOccurrences(of: "'", with: "''")
            try raw.exec("INSERT INTO output_search (rowid, text) VALUES (\(4_294_967_296 + event.seq), '\(quoted)')")
        }
        try raw.exec("INSERT INTO search_state (key, value) VALUES ('built', 1)")
        try raw.exec("PRAGMA user_version = 6")
        raw.close()
    }

    @Test func aVersion6CacheIsSearchedByLine() throws {
        try writeVersion6Cache()
        let opened = try CacheStore.open(file: file)
        #expect(opened.notice == nil)
        let store = opened.store
        defer { store.close() }
        #expect(
            try store.searchOutput("heartbeat").map(\.line) == [
                "The **scheduler** drops `heartbeat` frames when *busy*."
            ])
        #expect(try store.searchOutput("disk").map(\.lineNumber) == [13, 12, 11, 9])
        #expect(try store.lineCount(taskID: "t-3") == 13)
        // Streaming goes on from the line the old events left open.
        try store.appendEvents([OutputLinesSearchTests.output("t-3", 200, "tail of the output\n")])
        #expect(try store.searchOutput("tail of").map(\.lineNumber) == [14])
        let check = try SQLiteDatabase(path: file.path)
        defer { check.close() }
        #expect(try check.scalarInt("PRAGMA user_version") == Int64(CacheSchema.version))
    }
}
