import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// Events in chunks (`EventChunk`, a gapless run of one task's events a row): what a stream
/// sent reads back the same, piece for piece and byte for byte, as it read back when every
/// event was a row of JSON; a damaged chunk is skipped alone.
@Suite struct EventChunkTests {
    let dir = CacheTempDir()

    /// Text with what splits badly: multi-byte characters, characters of several scalars
    /// (a family emoji joined by ZWJ, a flag, `e` + a combining accent), CRLF, tabs, SGR.
    static let text =
        "build 日本語 ok ✓ 👩‍👩‍👧 🇫🇷 cafe\u{301}\r\n\t\u{1B}[1;32mgreen\u{1B}[0m done — 100 %\n"
        + String(repeating: "πολύ κείμενο ", count: 3) + "\u{1F600}\n"

    /// `text` cut into pieces of 1-40 scalars at any scalar (inside a grapheme cluster too),
    /// each cleaned as a piece is where it arrives. A Swift string holds no half of a UTF-8
    /// sequence, so a piece's bytes always end between scalars.
    static func pieces(of text: String, count: Int, using random: inout SeededGenerator) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var pieces: [String] = []
        var at = 0
        while pieces.count < count {
            let n = Int(random.next() % 40) + 1
            var piece = String.UnicodeScalarView()
            for k in 0..<n { piece.append(scalars[(at + k) % scalars.count]) }
            at += n
            pieces.append(UntrustedText.cleanKeepingSGR(String(piece)))
        }
        return pieces
    }

    static func stream(tasks: Int, perTask: Int, seed: UInt64) -> [TaskEvent] {
        var random = SeededGenerator(state: seed)
        let pieces = (0..<tasks).map { _ in Self.pieces(of: text, count: perTask, using: &random) }
        var seqs = [Int](repeating: 0, count: tasks)
        var events: [TaskEvent] = []
        while events.count < tasks * perTask {
            let t = Int(random.next() % UInt64(tasks))
            guard seqs[t] < perTask else { continue }
            seqs[t] += 1
            let millis = 1_795_939_704_000 + Int64(events.count) * 7 + Int64(random.next() % 5)
            events.append(
                TaskEvent(
                    eventID: Int64(events.count + 1), taskID: "task-\(t)", seq: seqs[t], type: .output,
                    ts: RFC3339.date(millis: millis),
                    payload: .output(
                        text: pieces[t][seqs[t] - 1], stream: t == 0 && seqs[t] % 50 == 0 ? "tool" : "assistant")))
        }
        return events
    }

    /// What the cache gave back for an event when it kept the event's wire JSON.
    static func asBefore(_ event: TaskEvent) -> TaskEvent? {
        event.outputWireJSON.flatMap { CacheStore.decodeEvents([$0]).first }
    }

    @Test func piecesCutAnywhereReadBackAsSentAndAsTheJSONRowsDid() throws {
        let sent = Self.stream(tasks: 3, perTask: 1_500, seed: 7)
        var store = try CacheStore.open(file: dir.databaseFile).store
        var random = SeededGenerator(state: 8)
        var at = 0
        while at < sent.count {
            let n = min(sent.count - at, Int(random.next() % 400) + 1)
            try store.appendEvents(Array(sent[at..<(at + n)]))
            at += n
        }
        for round in 0..<2 {
            for t in 0..<3 {
                let task = "task-\(t)"
                let mine = sent.filter { $0.taskID == task }
                let read = try store.events(taskID: task, limit: 10_000)
                #expect(read == mine, "round \(round), \(task)")
                #expect(read == mine.compactMap(Self.asBefore), "as the JSON rows read back")
                let bytes = read.flatMap { e -> [UInt8] in
                    guard case .output(let text, _) = e.payload else { return [] }
                    return Array(text.utf8)
                }
                let sentBytes = mine.flatMap { e -> [UInt8] in
                    guard case .output(let text, _) = e.payload else { return [] }
                    return Array(text.utf8)
                }
                #expect(bytes == sentBytes, "byte for byte")
                #expect(try store.latestEvents(taskID: task, limit: 700) == Array(mine.suffix(700)))
                #expect(try store.events(taskID: task, afterSeq: 1_234, limit: 10) == Array(mine[1_234..<1_244]))
            }
            store.close()
            store = try CacheStore.open(file: dir.databaseFile).store
        }
        store.close()
    }

    /// A piece made from bytes cut inside a character holds U+FFFD where the half was (what
    /// decoding the wire gives); that string, whatever it is, is what reads back.
    @Test func aPieceCutInsideACharacterReadsBackAsItWasReceived() throws {
        let bytes = Array("日本語の出力".utf8)
        let cuts = [0, 1, 4, 5, 8, 13, bytes.count]
        let pieces = zip(cuts, cuts.dropFirst()).map { String(decoding: bytes[$0..<$1], as: UTF8.self) }
        let sent = pieces.enumerated().map { i, piece in
            TaskEvent(
                eventID: Int64(i + 1), taskID: "cut", seq: i + 1, type: .output,
                payload: .output(text: UntrustedText.cleanKeepingSGR(piece), stream: "assistant"))
        }
        let store = try CacheStore.open(file: dir.databaseFile).store
        defer { store.close() }
        try store.appendEvents(sent)
        let read = try store.events(taskID: "cut")
        #expect(read == sent)
        #expect(read.map { Array(($0.payloadText ?? "").utf8) } == sent.map { Array(($0.payloadText ?? "").utf8) })
    }

    @Test func timesReadBackAsTheJSONPathReadThem() {
        var random = SeededGenerator(state: 99)
        for _ in 0..<20_000 {
            let millis = Int64(bitPattern: random.next() % 253_402_300_799_999) - 62_135_596_800_000 / 2
            let date = Date(timeIntervalSince1970: Double(millis) / 1_000 + Double(random.next() % 1_000) / 1e7)
            let viaText = RFC3339.parse(RFC3339.format(date))
            #expect(RFC3339.date(millis: Int64(RFC3339.writableMillis(date)!)) == viaText, "\(millis)")
        }
    }

    @Test func everyKindOfEventInOneChunkRoundTrips() throws {
        let t0 = CacheFixtures.t0
        let sent = [
            TaskEvent(
                eventID: 10, taskID: "mix", seq: 1, type: .output, ts: t0, payload: .output(text: "a", stream: "tool")),
            TaskEvent(
                eventID: 4, taskID: "mix", seq: 2, type: .status, ts: t0.addingTimeInterval(-5),
                payload: .status(status: .failed, previous: .running, reason: "exit 1")),
            TaskEvent(
                eventID: 11, taskID: "mix", seq: 3, type: .output, ts: nil, payload: .output(text: "", stream: "tool")),
            TaskEvent(
                eventID: 9, taskID: "mix", seq: 4, type: .output, ts: t0.addingTimeInterval(-86_400 * 400),
                payload: .output(text: "b\n", stream: "assistant")),
            TaskEvent(
                eventID: Int64.max, taskID: "mix", seq: 5, type: TaskEventType(rawValue: "task.heartbeat"), ts: t0,
                payload: .unknown),
            TaskEvent(
                eventID: 12, taskID: "mix", seq: 6, type: .output, ts: t0, payload: .output(text: "c", stream: "tool")),
        ]
        let store = try CacheStore.open(file: dir.databaseFile).store
        defer { store.close() }
        try store.appendEvents(sent)
        #expect(try store.events(taskID: "mix") == sent)
        let chunks = try store.withDatabase { db in try db.scalarInt("SELECT count(*) FROM task_chunks") }
        #expect(chunks == 1, "one gapless run, one row")
    }
}

extension TaskEvent {
    fileprivate var payloadText: String? {
        if case .output(let text, _) = payload { return text }
        return nil
    }
}
