import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// A cache of schema 10 (lines keyed by the task's id) opens with its lines keyed by the
/// task's number: the lines it held are the lines read and searched (not assembled again),
/// lines of no task with events are gone, and the stream goes on after them.
@Suite struct CacheLinesMigrationTests {
    let dir = CacheTempDir()

    /// Schema 9's events for task "a" (seqs 1...3), carried to 10 by its own step, and lines
    /// in the shape of 10, one of which says what no assembly of those events would.
    private func writeSchema10Cache() throws {
        try FileManager.default.createDirectory(
            at: dir.databaseFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let raw = try SQLiteDatabase(path: dir.databaseFile.path)
        defer { raw.close() }
        for step in CacheSchema.migrations.prefix(9) { try raw.exec(step) }
        for event in CacheFixtures.outputEvents(task: "a", seqs: 1...3) {
            let json = try CacheStore.encodeJSON(event).replacingOccurrences(of: "'", with: "''")
            try raw.exec(
                """
                INSERT INTO task_events (task_id, seq, event_id, type, json)
                VALUES ('a', \(event.seq), \(event.eventID), 'task.output', '\(json)')
                """)
        }
        try raw.exec("INSERT INTO task_activity (task_id, last_at, finished) VALUES ('a', 1700000000, 0)")
        try raw.exec(CacheSchema.migrations[9])
        try raw.exec(
            """
            INSERT INTO task_lines (task_id, line_no, first_seq, last_seq, stream, open, text) VALUES
                ('a', 1, 1, 1, '', 0, 'a line 1'),
                ('a', 2, 2, 2, '', 0, 'a line 2'),
                ('a', 3, 3, 3, '', 0, 'a line 3, as the old cache kept it'),
                ('gone', 1, 1, 1, '', 0, 'a line of a task without events');
            PRAGMA user_version = 10;
            """)
    }

    @Test func aSchema10CacheKeepsItsLinesUnderTheTasksNumber() throws {
        try writeSchema10Cache()
        let opened = try CacheStore.open(file: dir.databaseFile)
        #expect(opened.notice == nil)
        let store = opened.store
        defer { store.close() }
        #expect(
            try store.outputLines(of: "a", numbered: 1...3).map(\.text) == [
                "a line 1", "a line 2", "a line 3, as the old cache kept it",
            ])
        #expect(try store.searchOutput("as the old cache").map(\.lineNumber) == [3])
        #expect(try store.searchOutput("without events").isEmpty)
        #expect(try store.lineCount(taskID: "a") == 3)
        try store.appendEvents(CacheFixtures.outputEvents(task: "a", seqs: 4...4))
        #expect(try store.searchOutput("a line 4").map(\.lineNumber) == [4])

        let check = try SQLiteDatabase(path: dir.databaseFile.path)
        defer { check.close() }
        #expect(try check.scalarInt("PRAGMA user_version") == Int64(CacheSchema.version))
        #expect(try check.scalarInt("SELECT count(*) FROM pragma_table_info('task_lines') WHERE name = 'task_id'") == 0)
        #expect(try check.scalarInt("SELECT count(*) FROM task_lines") == 4)
        #expect(store.integrityCheck())
    }
}
