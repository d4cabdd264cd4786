import Foundation

/// A gapless run of one task's events, stored as one row of `task_chunks`: the seqs
/// `first_seq...last_seq` (one event each, no hole), the output texts one after the other in
/// `text`, and in `pieces` what else each event holds, packed.
///
/// Why not a row an event: at an agent's pace (1,000 pieces of 1–40 characters a second over
/// 20 tasks) a row an event kept each piece's JSON (about 200 bytes with its task id and
/// times) under a `(task_id, seq)` key, and every commit rewrote the end of each task's range
/// of that key, 20 pages scattered over the table: about 1,200 of the 1,740 bytes the process
/// wrote per event (docs/performance.md). A chunk holds a batch's pieces of one task in
/// about 5 bytes each besides the text, and the rows of a batch go at the end of the table.
///
/// `pieces` is a format byte, then one record per event in seq order:
/// - a header (varint): the kind in its low two bits (0: output in the stream of the previous
///   output record; 1: output, its stream follows; 2: another event, its wire JSON follows),
///   and 4 when a time follows;
/// - for kinds 0 and 1: the event id's difference from the previous record's (zigzag varint),
///   then the time's, in milliseconds since 1970, if any (zigzag varint);
/// - kind 1: the stream's length in bytes and its UTF-8; kinds 0 and 1: the text's length in
///   bytes (the text itself is the next that many bytes of `text`);
/// - kind 2: the JSON's length and its UTF-8 (`TaskEvent.encode`, cut as the cache cuts).
///
/// A row whose `pieces` starts with `{` is one event's wire JSON: a row carried over from a
/// cache written before chunks (the schema's 9 → 10 migration). Every row is read back as
/// untrusted: a length, count or seq that does not add up makes `decode` give nil, and the
/// reader skips that row alone.
enum EventChunk {
    static let packedFormat: UInt8 = 1
    static let jsonFormat: UInt8 = 0x7B  // {
    /// Most events one chunk holds (a burst's batch of one task makes a few chunks).
    static let maxEvents = 1_024
    /// Most bytes of text and pieces one chunk holds, unless one event alone is larger (an
    /// event is at most `CacheRetention.maxEventBytes`).
    static let maxBytes = 64 << 10

    private static let kindMask: UInt64 = 3
    private static let hasTime: UInt64 = 4

    /// Packs a run of events; `accepts` says whether the next one continues it.
    struct Builder {
        let firstSeq: Int
        private(set) var lastSeq: Int
        private(set) var text = ""
        private(set) var pieces: [UInt8] = [EventChunk.packedFormat]
        private var eventID: Int64 = 0
        private var millis: Int64 = 0
        private var stream: String?
        private(set) var count = 0

        init(_ row: EventRow) {
            firstSeq = row.seq
            lastSeq = row.seq - 1
            append(row)
        }

        /// The next seq, within the chunk's bounds.
        func accepts(_ row: EventRow) -> Bool {
            row.seq == lastSeq + 1 && count < EventChunk.maxEvents
                && text.utf8.count + pieces.count + row.bytes <= EventChunk.maxBytes
        }

        mutating func append(_ row: EventRow) {
            lastSeq = row.seq
            count += 1
            switch row.body {
            case .json(let json):
                Varint.put(2, into: &pieces)
                Varint.put(UInt64(json.utf8.count), into: &pieces)
                pieces.append(contentsOf: json.utf8)
            case .output(let piece, let pieceStream):
                let time = row.ts.flatMap(RFC3339.writableMillis).map { Int64($0) }
                let newStream = pieceStream != stream
                Varint.put((newStream ? 1 : 0) | (time == nil ? 0 : EventChunk.hasTime), into: &pieces)
                Varint.putSigned(row.eventID &- eventID, into: &pieces)
                eventID = row.eventID
                if let time {
                    Varint.putSigned(time &- millis, into: &pieces)
                    millis = time
                }
                if newStream {
                    Varint.put(UInt64(pieceStream.utf8.count), into: &pieces)
                    pieces.append(contentsOf: pieceStream.utf8)
                    stream = pieceStream
                }
                Varint.put(UInt64(piece.utf8.count), into: &pieces)
                text += piece
            }
        }
    }

    /// The events of one row, oldest first, for `taskID`; nil when the row is damaged.
    static func decode(taskID: String, firstSeq: Int, lastSeq: Int, text: [UInt8], pieces: [UInt8]) -> [TaskEvent]? {
        guard firstSeq >= 1, lastSeq >= firstSeq, lastSeq <= TaskEventSequencer.maxSeq,
            let format = pieces.first
        else { return nil }
        if format == jsonFormat {
            guard firstSeq == lastSeq,
                let event = CacheStore.decodeEvents([String(decoding: pieces, as: UTF8.self)]).first,
                event.seq == firstSeq, event.taskID == taskID
            else { return nil }
            return [event]
        }
        // Each record takes two bytes at least: a count past that is no count.
        guard format == packedFormat, lastSeq - firstSeq < pieces.count else { return nil }
        var reader = Reader(pieces: pieces, text: text)
        var events: [TaskEvent] = []
        events.reserveCapacity(lastSeq - firstSeq + 1)
        for seq in firstSeq...lastSeq {
            guard let event = reader.event(taskID: taskID, seq: seq) else { return nil }
            events.append(event)
        }
        return reader.atEnd ? events : nil
    }

    /// Reads the records of a packed row, checking every length against what is left.
    private struct Reader {
        let pieces: [UInt8]
        let text: [UInt8]
        var at = 1
        var textAt = 0
        var eventID: Int64 = 0
        var millis: Int64 = 0
        var stream = "assistant"

        init(pieces: [UInt8], text: [UInt8]) {
            self.pieces = pieces
            self.text = text
        }

        var atEnd: Bool { at == pieces.count && textAt == text.count }

        mutating func event(taskID: String, seq: Int) -> TaskEvent? {
            guard let header = Varint.get(pieces, at: &at), header < 8 else { return nil }
            if header & EventChunk.kindMask == 2 {
                guard let json = Self.bytes(from: pieces, at: &at),
                    let event = CacheStore.decodeEvents([String(decoding: json, as: UTF8.self)]).first,
                    event.seq == seq, event.taskID == taskID
                else { return nil }
                return event
            }
            guard header & EventChunk.kindMask <= 1, let id = Varint.getSigned(pieces, at: &at) else { return nil }
            eventID = eventID &+ id
            var ts: Date?
            if header & EventChunk.hasTime != 0 {
                guard let delta = Varint.getSigned(pieces, at: &at) else { return nil }
                millis = millis &+ delta
                ts = RFC3339.date(millis: millis)
            }
            if header & EventChunk.kindMask == 1 {
                guard let name = Self.bytes(from: pieces, at: &at) else { return nil }
                stream = UntrustedText.clean(String(decoding: name, as: UTF8.self))
            }
            guard let length = Varint.get(pieces, at: &at), length <= UInt64(text.count - textAt) else { return nil }
            let end = textAt + Int(length)
            let piece = String(decoding: text[textAt..<end], as: UTF8.self)
            textAt = end
            // The file is untrusted: its text is cleaned as the wire's is.
            return TaskEvent(
                eventID: eventID, taskID: taskID, seq: seq, type: .output, ts: ts,
                payload: .output(text: UntrustedText.cleanKeepingSGR(piece), stream: stream))
        }

        /// A length-prefixed run of `source`'s bytes.
        private static func bytes(from source: [UInt8], at: inout Int) -> ArraySlice<UInt8>? {
            guard let length = Varint.get(source, at: &at), length <= UInt64(source.count - at) else { return nil }
            defer { at += Int(length) }
            return source[at..<(at + Int(length))]
        }
    }
}

/// LEB128 numbers: seven bits a byte, low first; signed ones zigzag-mapped (0, -1, 1, -2…),
/// so a small difference either way takes one byte.
enum Varint {
    static func put(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func putSigned(_ value: Int64, into out: inout [UInt8]) {
        put(UInt64(bitPattern: (value << 1) ^ (value >> 63)), into: &out)
    }

    /// The number at `at` (moved past it); nil when the bytes end first or it takes more
    /// than the ten bytes a 64-bit number needs.
    static func get(_ bytes: [UInt8], at: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while at < bytes.count, shift < 64 {
            let b = bytes[at]
            at += 1
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    static func getSigned(_ bytes: [UInt8], at: inout Int) -> Int64? {
        guard let v = get(bytes, at: &at) else { return nil }
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }
}

extension RFC3339 {
    /// The time `parse(format(date))` gives for a date at `millis` milliseconds since 1970 (what
    /// a time read back from the cache's JSON was): the whole seconds, plus the three digits of
    /// the fraction summed as `parse` sums them. Nil outside the years `format` writes.
    static func date(millis: Int64) -> Date? {
        guard millis >= -62_135_596_800_000, millis < 253_402_300_800_000 else { return nil }
        let (q, r) = millis.quotientAndRemainder(dividingBy: 1_000)
        let seconds = r < 0 ? q - 1 : q
        var ms = Int(r < 0 ? r + 1_000 : r)
        var fraction = 0.0
        var scale = 0.1
        for divisor in [100, 10, 1] {
            fraction += Double(ms / divisor) * scale
            ms %= divisor
            scale /= 10
        }
        return Date(timeIntervalSince1970: Double(seconds) + fraction - 0.0)
    }
}
