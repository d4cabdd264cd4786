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

    struct Parser {
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
    }
}
