import Foundation

/// Decodes the common WebSocket frame — a `task.output` event in its plain shape — straight
/// from its UTF-8 bytes, in one pass, without Foundation's JSONDecoder.
///
/// Why by hand: in a burst nearly every frame is a `task.output`, and the generic Codable path
/// (a new JSONDecoder, a probe decode then a second full decode, keyed containers, `try?`
/// lookups) was the largest cost of ingest after the thread hand-offs. JSONSerialization would
/// still build a dictionary of boxed values per frame. This decoder takes only the exact
/// shape and gives up (`nil`) on anything else — a number with a fraction or exponent, an id
/// of another type, a duplicate or missing field, a lone surrogate, a nested value where a
/// string belongs — so the Codable path (`TaskEvent.init(from:)`) still decides every other
/// case, and the tolerant rules of docs/api.md stay defined in one place. What it accepts it
/// decodes exactly as that path would, cleaning every string with `UntrustedText`.
enum OutputFrameDecoder {
    static func decode(_ text: String) -> TaskEvent? {
        var unused: String?
        return decode(text, reusingTaskID: &unused)
    }

    /// As `decode`; `taskID` is the id of the previous frame of a stream: when this frame's id
    /// has the same bytes the string is shared instead of made again (and checked again), and
    /// it is replaced by this frame's id otherwise. A burst is mostly one task's events.
    static func decode(_ text: String, reusingTaskID taskID: inout String?) -> TaskEvent? {
        var text = text
        return text.withUTF8 { bytes in
            var parser = Parser(bytes: bytes, lastTaskID: taskID)
            let event = parser.event()
            taskID = parser.lastTaskID
            return event
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        var lastTaskID: String?

        init(bytes: UnsafeBufferPointer<UInt8>, lastTaskID: String?) {
            self.bytes = bytes
            self.lastTaskID = lastTaskID
        }

        /// The fields of the frame read so far, each at most once.
        private struct Fields {
            var eventID: Int?
            var seq: Int?
            var taskID: String?
            var isOutput = false
            var tsSeen = false
            var date: Date?
            var body: (text: String, stream: String?)?

            /// The event, when every field it needs was there; every string cleaned as the
            /// Codable path cleans it.
            func event() -> TaskEvent? {
                guard let eventID, let seq, seq >= 1, let taskID, isOutput, let body else { return nil }
                return TaskEvent(
                    eventID: Int64(eventID), taskID: taskID, seq: seq, type: .output, ts: date,
                    payload: .output(
                        text: UntrustedText.cleanKeepingSGR(body.text),
                        stream: body.stream.map(UntrustedText.clean) ?? "assistant"))
            }
        }

        mutating func event() -> TaskEvent? {
            var fields = Fields()
            guard take(0x7B) else { return nil }  // {
            if peek() == 0x7D { return nil }
            repeat {
                guard let key = string(), take(0x3A), field(key, into: &fields) else { return nil }  // :
            } while take(0x2C)  // ,
            guard take(0x7D), atEnd() else { return nil }  // }
            return fields.event()
        }

        /// Reads the value of field `key` into `fields`; false when it is one this decoder
        /// leaves to the Codable path (a second copy of a field, another type, another shape).
        private mutating func field(_ key: String, into fields: inout Fields) -> Bool {
            switch key {
            case "event_id":
                guard fields.eventID == nil, let v = integer() else { return false }
                fields.eventID = v
            case "seq":
                guard fields.seq == nil, let v = integer() else { return false }
                fields.seq = v
            case "task_id":
                guard fields.taskID == nil, let id = taskID() else { return false }
                fields.taskID = id
            case "type":
                guard !fields.isOutput, let s = string(), s == "task.output" else { return false }
                fields.isOutput = true
            case "ts":
                guard !fields.tsSeen, let date = timestamp() else { return false }
                fields.tsSeen = true
                fields.date = date
            case "data":
                guard fields.body == nil, let d = data() else { return false }
                fields.body = d
            default:
                return skipValue()
            }
            return true
        }

        /// A task id: the previous frame's string when the bytes are the same, else a new one.
        private mutating func taskID() -> String? {
            let start = i
            guard peek() == 0x22 else { return integer().map { String($0) } }
            // Ids are tokens (ResourceID); anything else is left to the Codable path, which
            // refuses it, so both paths accept exactly the same ids.
            if let raw = plainString(), var last = lastTaskID, last.withUTF8({ $0.elementsEqual(raw) }) {
                return last
            }
            guard let s = string(at: start), ResourceID.isValid(s) else { return nil }
            lastTaskID = s
            return s
        }

        /// `ts`: null, or an RFC 3339 instant (nil inside when it does not parse, as the Codable
        /// path reads it); nil when it is not a string.
        private mutating func timestamp() -> Date?? {
            if literal("null") { return .some(nil) }
            // Read straight from the bytes when the string has no escapes and no padding (the
            // usual case); otherwise as a String, trimmed by `parse`.
            let start = i
            if let raw = plainString(), let first = raw.first, let last = raw.last,
                first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80
            {
                return .some(RFC3339.parse(utf8: raw))
            }
            guard let s = string(at: start) else { return nil }
            return .some(RFC3339.parse(s))
        }

        /// `{"text": "...", "stream": "..."}`, other keys skipped; `stream` may be missing or null.
        private mutating func data() -> (text: String, stream: String?)? {
            var text: String?
            var stream: String?
            var streamSeen = false
            guard take(0x7B) else { return nil }
            if take(0x7D) { return nil }  // no text: the Codable path reports it
            repeat {
                guard let key = string(), take(0x3A) else { return nil }
                switch key {
                case "text":
                    guard text == nil, let s = string() else { return nil }
                    text = s
                case "stream":
                    guard !streamSeen else { return nil }
                    streamSeen = true
                    if literal("null") { break }
                    guard let s = string() else { return nil }
                    stream = s
                default:
                    guard skipValue() else { return nil }
                }
            } while take(0x2C)
            guard take(0x7D), let text else { return nil }
            return (text, stream)
        }

        // MARK: Lexing

        private mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                i += 1
            }
        }

        private mutating func peek() -> UInt8? {
            skipSpace()
            return i < bytes.count ? bytes[i] : nil
        }

        private mutating func take(_ b: UInt8) -> Bool {
            guard peek() == b else { return false }
            i += 1
            return true
        }

        private mutating func atEnd() -> Bool {
            skipSpace()
            return i == bytes.count
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            skipSpace()
            let n = word.utf8CodeUnitCount
            guard i + n <= bytes.count else { return false }
            for k in 0..<n where bytes[i + k] != word.utf8Start[k] { return false }
            i += n
            return true
        }

        /// A JSON integer without fraction or exponent that fits an Int.
        private mutating func integer() -> Int? {
            skipSpace()
            var negative = false
            if i < bytes.count, bytes[i] == 0x2D {
                negative = true
                i += 1
            }
            let start = i
            var value = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int(bytes[i] - 0x30))
                if o1 || o2 { return nil }
                value = a
                i += 1
            }
            guard i > start else { return nil }
            if i < bytes.count, bytes[i] == 0x2E || bytes[i] == 0x65 || bytes[i] == 0x45 { return nil }
            return negative ? -value : value
        }

        /// The bytes of a JSON string without escapes or control bytes, quotes left out, and the
        /// position after it; nil (position unchanged past the whitespace) for any other value.
        private mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
            guard peek() == 0x22 else { return nil }
            var j = i + 1
            while j < bytes.count {
                let b = bytes[j]
                if b == 0x22 {
                    defer { i = j + 1 }
                    return UnsafeBufferPointer(rebasing: bytes[(i + 1)..<j])
                }
                if b == 0x5C || b < 0x20 { return nil }
                j += 1
            }
            return nil
        }

        /// `string()` from an earlier position (after a `plainString()` that gave up or whose
        /// bytes were not enough).
        private mutating func string(at position: Int) -> String? {
            i = position
            return string()
        }

        /// A JSON string; nil on anything JSON forbids or this decoder leaves to the Codable path.
        private mutating func string() -> String? {
            guard take(0x22) else { return nil }
            let start = i
            // Common case: no escapes; the bytes are already valid UTF-8 (they came from a String).
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 {
                    let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                    i += 1
                    return s
                }
                if b == 0x5C { return unescaped(from: start) }
                if b < 0x20 { return nil }
                i += 1
            }
            return nil
        }

        /// The string that starts at `start`, `i` being on its first backslash. Escapes only
        /// shrink the text, so the rest of the frame bounds the decoded size: the string is
        /// written in place, one allocation (no byte array copied again).
        private mutating func unescaped(from start: Int) -> String? {
            var ok = false
            let decoded = String(unsafeUninitializedCapacity: bytes.count - start) { out in
                var n = i - start
                if n > 0 { out.baseAddress!.update(from: bytes.baseAddress! + start, count: n) }
                while i < bytes.count {
                    // Copy the run up to the next quote, backslash or control byte in one go.
                    let runStart = i
                    while i < bytes.count, bytes[i] != 0x22, bytes[i] != 0x5C, bytes[i] >= 0x20 { i += 1 }
                    if i > runStart {
                        (out.baseAddress! + n).update(from: bytes.baseAddress! + runStart, count: i - runStart)
                        n += i - runStart
                    }
                    guard i < bytes.count else { return 0 }
                    let b = bytes[i]
                    i += 1
                    if b == 0x22 {
                        ok = true
                        return n
                    }
                    // A control byte (the run stops only on those), or an escape JSON forbids.
                    guard b == 0x5C, let scalar = escape() else { return 0 }
                    if scalar.isASCII {
                        out[n] = UInt8(scalar.value)
                        n += 1
                    } else {
                        for unit in UTF8.encode(scalar)! {
                            out[n] = unit
                            n += 1
                        }
                    }
                }
                return 0
            }
            return ok ? decoded : nil
        }

        /// The character of the escape after a backslash; nil for one JSON forbids.
        private mutating func escape() -> Unicode.Scalar? {
            guard i < bytes.count else { return nil }
            let e = bytes[i]
            i += 1
            switch e {
            case 0x22, 0x5C, 0x2F: return Unicode.Scalar(e)
            case 0x62: return "\u{08}"
            case 0x66: return "\u{0C}"
            case 0x6E: return "\n"
            case 0x72: return "\r"
            case 0x74: return "\t"
            case 0x75: return unicodeEscape()
            default: return nil
            }
        }

        /// `\uXXXX` after its `u`, a surrogate pair as one character; nil for a lone surrogate.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let unit = hex4() else { return nil }
            if (0xDC00...0xDFFF).contains(unit) { return nil }
            guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(UInt32(unit)) }
            guard i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 else { return nil }
            i += 2
            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
        }

        private mutating func hex4() -> UInt16? {
            guard i + 4 <= bytes.count else { return nil }
            var v: UInt16 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let d: UInt8
                switch b {
                case 0x30...0x39: d = b - 0x30
                case 0x41...0x46: d = b - 0x41 + 10
                case 0x61...0x66: d = b - 0x61 + 10
                default: return nil
                }
                v = v << 4 | UInt16(d)
                i += 1
            }
            return v
        }

        /// Skips a value of a field this decoder does not read: strings, numbers and literals
        /// only. Nested objects and arrays are left to the Codable path (rare, and bounded there).
        private mutating func skipValue() -> Bool {
            switch peek() {
            case 0x22: return string() != nil
            case 0x74: return literal("true")
            case 0x66: return literal("false")
            case 0x6E: return literal("null")
            case let b? where b == 0x2D || (0x30...0x39).contains(b):
                i += 1
                while i < bytes.count,
                    (0x30...0x39).contains(bytes[i]) || [0x2E, 0x65, 0x45, 0x2B, 0x2D].contains(bytes[i])
                {
                    i += 1
                }
                return true
            default: return false
            }
        }
    }
}
