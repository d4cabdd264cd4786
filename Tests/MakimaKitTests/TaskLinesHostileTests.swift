import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// The cache's line index (`TaskLines`, and the search over it) fed what a hostile or broken
/// server streams: megabytes without a newline in token pieces, one line of 50 MB, output
/// ending its lines with CR alone, NUL bytes. Each stays bounded, clean and searchable, and
/// the lines after it keep their numbers. Events arrive as the wire carries them (JSON
/// frames decoded and cleaned the one way the client does), on a real SQLite file.
@Suite struct TaskLinesHostileTests {
    let dir = CacheTempDir()

    /// `text` as the `task.output` frame a server sends, decoded as the client decodes it.
    static func frame(_ task: String, _ seq: Int, _ text: String) throws -> TaskEvent {
        let body = try JSONSerialization.data(withJSONObject: ["text": text, "stream": "tool"])
        let json =
            #"{"event_id":\#(seq),"task_id":"\#(task)","seq":\#(seq),"type":"task.output","data":"#
            + String(decoding: body, as: UTF8.self) + "}"
        return try MakimaJSON.decode(TaskEvent.self, from: Data(json.utf8))
    }

    /// The stored lines of `task`: (number, text), in order, after the catch-up that
    /// assembles them (`TaskLines.catchUpDue`, which `lineCount` runs as a search does).
    static func lines(of task: String, in store: CacheStore) throws -> [(Int, String)] {
        _ = try store.lineCount(taskID: task)
        return try store.withDatabase { db in
            let select = try db.prepare(
                "SELECT line_no, text FROM task_lines WHERE num = (SELECT num FROM task_activity WHERE task_id = ?1) ORDER BY line_no"
            )
            try select.bind(task, at: 1)
            var rows: [(Int, String)] = []
            while try select.step() { rows.append((select.int(0), select.text(1) ?? "")) }
            return rows
        }
    }

    static let longestLine = TaskLines.maxLineBytes + TaskLines.cutMarker.utf8.count

    @Test func megabytesWithoutANewlineInTokenPiecesKeepOneBoundedLine() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        var random = SeededGenerator(state: 33)
        var seq = 0
        var sent = 0
        // 2 MB in pieces of 1-40 characters, written in batches as the writer does.
        while sent < 2 << 20 {
            var batch: [TaskEvent] = []
            for _ in 0..<500 {
                let n = Int(random.next() % 40) + 1
                seq += 1
                batch.append(try Self.frame("t", seq, String(repeating: "ab", count: n).prefix(n).description))
                sent += n
            }
            try store.appendEvents(batch)
        }
        try store.appendEvents([try Self.frame("t", seq + 1, " end\nafter the flood\n")])
        let rows = try Self.lines(of: "t", in: store)
        #expect(rows.map(\.0) == [1, 2])
        #expect(rows[0].1.utf8.count == Self.longestLine)
        #expect(rows[0].1.hasSuffix(TaskLines.cutMarker))
        #expect(rows[1].1 == "after the flood")
        #expect(try store.searchOutput("after the flood").map(\.lineNumber) == [2])
        #expect(try store.searchOutput("abab").map(\.lineNumber) == [1])
        store.close()
    }

    @Test func oneLineOfFiftyMegabytesIsCutAndTheNextLineKeepsItsNumber() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        let megabyte = String(repeating: "0123456789abcdef", count: 1 << 16)
        for i in 1...50 { try store.appendEvents([try Self.frame("big", i, megabyte)]) }
        try store.appendEvents([try Self.frame("big", 51, "\nsecond line\n")])
        let rows = try Self.lines(of: "big", in: store)
        #expect(rows.map(\.0) == [1, 2])
        #expect(rows[0].1.utf8.count == Self.longestLine)
        #expect(rows[1].1 == "second line")
        #expect(try store.searchOutput("second line").map(\.lineNumber) == [2])
        store.close()
    }

    /// CR is dropped where text arrives (it would move the terminal's cursor): output that ends
    /// its lines with CR alone (a progress meter redrawing itself) is one line, held to the
    /// same bound as any endless line, and no CR is stored or searched.
    @Test func linesEndedByCarriageReturnsAloneStayBoundedAndHoldNoCR() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        var seq = 0
        for step in 0..<4_000 {
            seq += 1
            try store.appendEvents([try Self.frame("cr", seq, "progress \(step % 100)%\r")])
        }
        try store.appendEvents([try Self.frame("cr", seq + 1, "\r\ndone\r\n")])
        let rows = try Self.lines(of: "cr", in: store)
        #expect(rows.map(\.0) == [1, 2])
        #expect(rows.allSatisfy { !$0.1.utf8.contains(0x0D) })
        #expect(rows[0].1.utf8.count <= Self.longestLine)
        #expect(rows[1].1 == "done")
        #expect(try store.searchOutput("done").map(\.lineNumber) == [2])
        store.close()
    }

    @Test func nulBytesAreNeverStoredAndTheTextAroundThemIsFound() throws {
        let store = try CacheStore.open(file: dir.databaseFile).store
        let pieces = [
            "be\u{0}fore ", "\u{0}\u{0}", "nul\u{0}\n", "\u{0}line two\n", String(repeating: "\u{0}", count: 100_000),
            "\n",
        ]
        for (i, piece) in pieces.enumerated() { try store.appendEvents([try Self.frame("nul", i + 1, piece)]) }
        let rows = try Self.lines(of: "nul", in: store)
        #expect(rows.map(\.1) == ["before nul", "line two", ""])
        #expect(try store.searchOutput("before nul").map(\.lineNumber) == [1])
        // A pattern holding NUL is plain text that matches nothing stored; it does not fail.
        #expect(try store.searchOutput("line\u{0}two").isEmpty)
        #expect(try store.searchOutput("\u{0}").isEmpty)
        store.close()
    }
}
