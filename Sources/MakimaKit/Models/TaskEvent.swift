import Foundation

public struct TaskEventType: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let output = TaskEventType(rawValue: "task.output")
    public static let status = TaskEventType(rawValue: "task.status")
    public static let completionGate = TaskEventType(rawValue: "task.completion_gate")
    public static let supervisorQuestion = TaskEventType(rawValue: "task.supervisor_question")
}

/// The `data` of a task event, by type. Unknown types keep nothing but their name: they are
/// counted and skipped by consumers, never an error.
public enum TaskEventPayload: Sendable, Equatable {
    /// `text` is cleaned of every control sequence except SGR colour codes, which are kept in a
    /// normalised form (`ESC [ digits;… m`) for the renderer to map onto the palette.
    case output(text: String, stream: String)
    case status(status: TaskStatus, previous: TaskStatus?, reason: String?)
    case completionGate(ready: Bool, summary: String?, body: String)
    case supervisorQuestion(questionID: String, text: String, directiveID: String?)
    case unknown
}

public struct TaskEvent: Codable, Sendable, Equatable {
    public var eventID: Int64
    public var taskID: String
    public var seq: Int
    public var type: TaskEventType
    /// When the server stamped it, on the server's clock (`ClockOffset.local` reads it on ours).
    public var ts: Date?
    public var payload: TaskEventPayload
    /// When it arrived, on this machine's clock, for an event received live on the socket
    /// (outside a replay); nil for history (a replay, a REST page, the cache). Live events
    /// count in the activity history at their arrival. Not the server's: never encoded, and
    /// not part of equality (the same event from a replay is the same event).
    public var arrivedAt: Date?

    public init(
        eventID: Int64, taskID: String, seq: Int, type: TaskEventType, ts: Date? = nil, payload: TaskEventPayload,
        arrivedAt: Date? = nil
    ) {
        self.eventID = eventID
        self.taskID = taskID
        self.seq = seq
        self.type = type
        self.ts = ts
        self.payload = payload
        self.arrivedAt = arrivedAt
    }

    public static func == (a: TaskEvent, b: TaskEvent) -> Bool {
        a.eventID == b.eventID && a.taskID == b.taskID && a.seq == b.seq && a.type == b.type && a.ts == b.ts
            && a.payload == b.payload
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard let eid = c.int("event_id") else {
            throw DecodingError.keyNotFound(
                AnyKey("event_id"),
                .init(codingPath: c.codingPath, debugDescription: "missing or non-integer field 'event_id'"))
        }
        guard let seq = c.int("seq"), seq >= 1 else {
            throw DecodingError.keyNotFound(
                AnyKey("seq"),
                .init(codingPath: c.codingPath, debugDescription: "missing or invalid field 'seq' (an integer >= 1)"))
        }
        eventID = Int64(eid)
        self.seq = seq
        taskID = try c.id("task_id")
        type = TaskEventType(rawValue: try c.requiredText("type"))
        ts = c.date("ts")
        let data = try? c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("data"))
        switch type {
        case .output:
            guard let d = data, let raw = try? d.decode(String.self, forKey: AnyKey("text")) else {
                throw DecodingError.keyNotFound(
                    AnyKey("text"), .init(codingPath: c.codingPath, debugDescription: "task.output needs data.text"))
            }
            payload = .output(text: UntrustedText.cleanKeepingSGR(raw), stream: d.text("stream") ?? "assistant")
        case .status:
            guard let d = data, let s = d.text("status") else {
                throw DecodingError.keyNotFound(
                    AnyKey("status"), .init(codingPath: c.codingPath, debugDescription: "task.status needs data.status")
                )
            }
            payload = .status(
                status: TaskStatus(rawValue: s), previous: d.text("previous").map(TaskStatus.init(rawValue:)),
                reason: d.text("reason"))
        case .completionGate:
            let d = data
            payload = .completionGate(
                ready: d?.bool("ready") ?? false, summary: d?.text("summary"), body: d?.text("body") ?? "")
        case .supervisorQuestion:
            guard let d = data, let text = d.text("text") else {
                throw DecodingError.keyNotFound(
                    AnyKey("text"),
                    .init(codingPath: c.codingPath, debugDescription: "task.supervisor_question needs data.text"))
            }
            payload = .supervisorQuestion(
                questionID: d.idIfPresent("question_id") ?? "", text: text, directiveID: d.idIfPresent("directive_id"))
        default:
            payload = .unknown
        }
    }

    /// Encodes the wire shape (used by the cache, which stores events as the server sent them, cleaned).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(eventID, forKey: AnyKey("event_id"))
        try c.encode(taskID, forKey: AnyKey("task_id"))
        try c.encode(seq, forKey: AnyKey("seq"))
        try c.encode(type.rawValue, forKey: AnyKey("type"))
        if let ts { try c.encode(RFC3339.format(ts), forKey: AnyKey("ts")) }
        var d = c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("data"))
        switch payload {
        case .output(let text, let stream):
            try d.encode(text, forKey: AnyKey("text"))
            try d.encode(stream, forKey: AnyKey("stream"))
        case .status(let status, let previous, let reason):
            try d.encode(status.rawValue, forKey: AnyKey("status"))
            try d.encodeIfPresent(previous?.rawValue, forKey: AnyKey("previous"))
            try d.encodeIfPresent(reason, forKey: AnyKey("reason"))
        case .completionGate(let ready, let summary, let body):
            try d.encode(ready, forKey: AnyKey("ready"))
            try d.encodeIfPresent(summary, forKey: AnyKey("summary"))
            try d.encode(body, forKey: AnyKey("body"))
        case .supervisorQuestion(let qid, let text, let did):
            try d.encode(qid, forKey: AnyKey("question_id"))
            try d.encode(text, forKey: AnyKey("text"))
            try d.encodeIfPresent(did, forKey: AnyKey("directive_id"))
        case .unknown:
            break
        }
    }
}

extension TaskEvent {
    /// This event with every text field cut to at most `maxTextBytes` UTF-8 bytes, each cut
    /// one ending in a line that says how much was left out (what the cache stores of an
    /// event larger than it keeps).
    func cutForCache(maxTextBytes: Int) -> TaskEvent {
        func cut(_ s: String) -> String {
            guard s.utf8.count > maxTextBytes else { return s }
            var kept = String.UnicodeScalarView()
            var bytes = 0
            for v in s.unicodeScalars {
                bytes += String(v).utf8.count
                if bytes > maxTextBytes { break }
                kept.append(v)
            }
            let left = s.utf8.count - String(kept).utf8.count
            return String(kept) + "\n[… \(left) more bytes of this event are not kept in the offline cache]\n"
        }
        var e = self
        switch payload {
        case .output(let text, let stream): e.payload = .output(text: cut(text), stream: cut(stream))
        case .status(let status, let previous, let reason):
            e.payload = .status(status: status, previous: previous, reason: reason.map(cut))
        case .completionGate(let ready, let summary, let body):
            e.payload = .completionGate(ready: ready, summary: summary.map(cut), body: cut(body))
        case .supervisorQuestion(let qid, let text, let did):
            e.payload = .supervisorQuestion(questionID: qid, text: cut(text), directiveID: did)
        case .unknown: break
        }
        return e
    }
}

/// A page of `GET /mesh/tasks/{id}/output`.
public struct TaskOutputPage: Decodable, Sendable {
    public var events: [TaskEvent]
    public var skipped: Int
    public var nextAfterSeq: Int?

    public init(from decoder: Decoder) throws {
        let list = try ListEnvelope<TaskEvent>(from: decoder)
        events = list.items
        skipped = list.skipped
        nextAfterSeq = list.nextAfterSeq
    }
}

extension TaskEvent {
    /// The wire shape of a `task.output` event as the cache stores it, written by hand: the
    /// same JSON `encode(to:)` gives through JSONEncoder (sorted keys), which cost more than
    /// the rest of caching a burst together (every string escaped through generic containers,
    /// keys sorted per object). Nil for other payloads: those take the Codable path.
    var outputWireJSON: String? {
        guard case .output(let text, let stream) = payload, type == .output else { return nil }
        var json = JSONBytesWriter(capacity: text.utf8.count + taskID.utf8.count + 120)
        json.raw(#"{"data":{"stream":"#)
        json.string(stream)
        json.raw(#","text":"#)
        json.string(text)
        json.raw(#"},"event_id":"#)
        json.number(eventID)
        json.raw(#","seq":"#)
        json.number(Int64(seq))
        json.raw(#","task_id":"#)
        json.string(taskID)
        if let ts {
            json.raw(#","ts":"#)
            json.string(RFC3339.format(ts))
        }
        json.raw(#","type":"task.output"}"#)
        return json.text
    }
}
