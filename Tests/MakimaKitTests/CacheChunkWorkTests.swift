import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// What a batch of a stream costs the cache, counted (rows changed, WAL frames written), not
/// timed; the lines assembled after the fact; damaged chunks; a cache of schema 9 carried over.
@Suite struct CacheChunkWorkTests {
    let dir = CacheTempDir()

    /// `perTask` pieces of 20 characters for each of `tasks` tasks, from seq `from`, taking turns.
    static func batch(tasks: Int, perTask: Int, from: Int) -> [TaskEvent] {
        (0..<perTask).flatMap { k in
            (0..<tasks).map { t in
                let seq = from + k
                return TaskEvent(
                    eventID: Int64(seq * tasks + t), taskID: "stream-task-\(t)-4f1c-9a2b-7d3e5f60a1b2", seq: seq,
                    type: .output, ts: CacheFixtures.t0.addingTimeInterval(Double(seq) / 1_000),
                    payload: .output(
                        text: k % 4 == 3 ? "line \(seq) of \(t) done\n" : "piece \(seq) of t\(t) ", stream: "assistant")
                )
            }
        }
    }

    /// A store whose search index never catches up by itself (its writes are not the batch's).
    private func openStore(keep: Int = 2_000) throws -> CacheStore {
        let store = try CacheStore.open(file: dir.databaseFile, eventsKeptPerTask: keep).store
        store.indexInterval.withLock { $0 = .infinity }
        return store
    }

    /// Rows changed and WAL frames written by appending `events` (the WAL emptied first).
    private func cost(of events: [TaskEvent], in store: CacheStore) throws -> (rows: Int, frames: Int) {
        let before = try store.withDatabase { db in
            _ = try db.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)")
            return db.totalChanges
        }
        try store.appendEvents(events)
        return try store.withDatabase { db in
            let wal = try db.prepare("PRAGMA wal_checkpoint(PASSIVE)")
            _ = try wal.step()
            return (db.totalChanges - before, wal.int(1))
        }
    }

    /// A batch writes a row a task, however many pieces each task had: 20 tasks × 5 pieces
    /// and 20 tasks × 100 change the same rows (a chunk and an activity row a task, the
    /// minute's count), and the pages written grow with the text alone, not per piece.
    @Test func aBatchChangesARowATaskWhateverItsPiecesPerTask() throws {
        let store = try openStore()
        defer { store.close() }
        try store.appendEvents(Self.batch(tasks: 20, perTask: 1, from: 1))  // tasks known
        // The first append caught up (lines and index); the batch after a catch-up marks its
        // tasks' lines due again, a second change of each activity row once per catch-up.
        try store.appendEvents(Self.batch(tasks: 20, perTask: 1, from: 2))
        let lines = try store.withDatabase { db in try db.scalarInt("SELECT count(*) FROM task_lines") }
        let few = try cost(of: Self.batch(tasks: 20, perTask: 5, from: 3), in: store)
        // 2,000 pieces: one transaction (`maxEventsPerTransaction`), as a second of a stream.
        let many = try cost(of: Self.batch(tasks: 20, perTask: 100, from: 8), in: store)
        #expect(few.rows == many.rows, "rows changed: \(few.rows) for 100 pieces, \(many.rows) for 2,000")
        #expect(many.rows <= 2 * 20 + 4)
        // 2,000 pieces of about 20 bytes: about 40 KB of text, 10 pages of 4 KiB.
        let textPages = 2_000 * 21 / 4_096
        #expect(many.frames <= textPages + textPages / 4 + 16, "\(many.frames) frames for \(textPages) pages of text")
        #expect(few.frames <= 16, "\(few.frames) frames for 100 pieces")
        #expect(
            try store.withDatabase { db in try db.scalarInt("SELECT count(*) FROM task_lines") } == lines,
            "no line written by a batch: they wait for the catch-up")
    }

    /// Lines wait for the catch-up, which a search runs first: nothing streamed is missed, a
    /// task streaming past its window between two catch-ups included (its chunks are
    /// assembled before they leave), and the lines keep their numbers.
    @Test func linesAssembledLaterHoldEveryLineAndTheirNumbers() throws {
        let store = try openStore(keep: 100)
        defer { store.close() }
        var seq = 1
        for _ in 0..<25 {  // 1,000 pieces a task, 250 lines, ten times the window
            try store.appendEvents(Self.batch(tasks: 3, perTask: 40, from: seq))
            seq += 40
        }
        let task = "stream-task-1-4f1c-9a2b-7d3e5f60a1b2"
        #expect(try store.searchOutput("line 1000 of 1 done").map(\.lineNumber) == [250])
        #expect(try store.lineCount(taskID: task) == 100)
        let lines = try TaskLinesHostileTests.lines(of: task, in: store)
        #expect(lines.map(\.0) == Array(151...250))
        let first = (151 - 1) * 4 + 1  // line n holds the pieces of seqs 4n-3...4n
        #expect(
            lines.first?.1
                == "piece \(first) of t1 piece \(first + 1) of t1 piece \(first + 2) of t1 line \(first + 3) of 1 done")
        #expect(try store.events(taskID: task, limit: 10_000).map(\.seq) == Array(901...1_000))
    }

    /// Damaged chunks (any program can write the file) are skipped one by one; the task's
    /// other chunks, and other tasks, still read.
    @Test func aDamagedChunkIsSkippedAlone() throws {
        let store = try openStore()
        try store.appendEvents(CacheFixtures.outputEvents(task: "g", seqs: 1...10))
        try store.appendEvents(CacheFixtures.outputEvents(task: "g", seqs: 11...20))
        try store.appendEvents(CacheFixtures.outputEvents(task: "h", seqs: 1...5))
        try store.withDatabase { db in
            try db.exec(
                """
                UPDATE task_chunks SET pieces = X'01FFFFFFFFFFFFFFFFFFFF7F' WHERE first_seq = 1
                    AND num = (SELECT num FROM task_activity WHERE task_id = 'g');
                INSERT INTO task_chunks (num, first_seq, last_seq, text, pieces)
                    SELECT num, 30, 21, 'x', X'01' FROM task_activity WHERE task_id = 'g';
                INSERT INTO task_chunks (num, first_seq, last_seq, text, pieces)
                    SELECT num, 31, 40, 'too short', X'0100020100' FROM task_activity WHERE task_id = 'g';
                INSERT INTO task_chunks (num, first_seq, last_seq, text, pieces)
                    SELECT num, 'x', 41, '', '' FROM task_activity WHERE task_id = 'g';
                """)
        }
        #expect(try store.events(taskID: "g").map(\.seq) == Array(11...20))
        #expect(try store.latestEvents(taskID: "g").map(\.seq) == Array(11...20))
        #expect(try store.events(taskID: "h") == CacheFixtures.outputEvents(task: "h", seqs: 1...5))
        #expect(try store.lastSeenSeqs()["g"] == 41)
        // The cap's trimming meets a damaged newest chunk: it goes, nothing traps.
        let trimmed = try store.withDatabase { db in
            let num = try db.scalarInt("SELECT num FROM task_activity WHERE task_id = 'g'") ?? 0
            return try ChunkTrim(db).toNewest(num, taskID: "g")
        }
        #expect(trimmed >= 0)
        store.close()
    }

    /// Any byte of a chunk changed: the decoder never traps, and what it does give is whole.
    @Test func mutatedChunksNeverTrapTheDecoder() throws {
        let rows = try CacheFixtures.outputEvents(task: "m", seqs: 1...40).map {
            try EventRow($0, maxBytes: 1 << 20, serverClock: .zero, encoder: MakimaJSON.encoder())
        }
        var run = EventChunk.Builder(rows[0])
        for row in rows.dropFirst() { run.append(row) }
        var random = SeededGenerator(state: 5)
        for _ in 0..<20_000 {
            var pieces = run.pieces
            var text = Array(run.text.utf8)
            for _ in 0...(random.next() % 3) {
                if random.next() % 2 == 0, !pieces.isEmpty {
                    pieces[Int(random.next() % UInt64(pieces.count))] = UInt8(truncatingIfNeeded: random.next())
                } else if !text.isEmpty {
                    text.removeLast(Int(random.next() % UInt64(min(text.count, 4))))
                }
            }
            if let events = EventChunk.decode(taskID: "m", firstSeq: 1, lastSeq: 40, text: text, pieces: pieces) {
                #expect(events.map(\.seq) == Array(1...40))
            }
        }
        #expect(
            EventChunk.decode(taskID: "m", firstSeq: 1, lastSeq: 40, text: Array(run.text.utf8), pieces: run.pieces)
                == CacheFixtures.outputEvents(task: "m", seqs: 1...40))
    }

    /// A cache of schema 9 (a row an event, its JSON) opens with its events as chunks of one,
    /// read as before; a row whose JSON no longer decodes is skipped, the others kept; the
    /// stream goes on after them; tasks with events and no activity row are given one.
    @Test func aSchema9CacheCarriesItsEventsOver() throws {
        try FileManager.default.createDirectory(
            at: dir.databaseFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let raw = try SQLiteDatabase(path: dir.databaseFile.path)
        for step in CacheSchema.migrations.prefix(9) { try raw.exec(step) }
        let a =
            CacheFixtures.outputEvents(task: "a", seqs: 1...5)
            + [
                TaskEvent(
                    eventID: 6, taskID: "a", seq: 6, type: .status, ts: CacheFixtures.t0,
                    payload: .status(status: .running, previous: nil, reason: "it's on"))
            ]
        let b = CacheFixtures.outputEvents(task: "b", seqs: 1...3)
        for event in a + b {
            let json = try CacheStore.encodeJSON(event).replacingOccurrences(of: "'", with: "''")
            try raw.exec(
                """
                INSERT INTO task_events (task_id, seq, event_id, type, json)
                VALUES ('\(event.taskID)', \(event.seq), \(event.eventID), '\(event.type.rawValue)', '\(json)')
                """)
        }
        try raw.exec(
            """
            INSERT INTO task_events (task_id, seq, event_id, type, json) VALUES ('a', 7, 7, 'task.output', 'not json');
            INSERT INTO task_activity (task_id, last_at, finished) VALUES ('a', 1700000000, 0);
            PRAGMA user_version = 9;
            """)
        raw.close()
        let store = try CacheStore.open(file: dir.databaseFile).store
        defer { store.close() }
        #expect(try store.events(taskID: "a") == a)
        #expect(try store.events(taskID: "b") == b)
        #expect(try store.lastSeenSeqs() == ["a": 7, "b": 3])
        #expect(try store.eventCount(taskID: "a") == 7)
        #expect(try store.searchOutput("b line 2").map(\.lineNumber) == [2])
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 6...9))
        #expect(try store.events(taskID: "a").map(\.seq) == Array(1...6) + [8, 9])
        #expect(try store.contiguousSeqs() == ["a": 9, "b": 3])
        #expect(store.integrityCheck())
    }
}
