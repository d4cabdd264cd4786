import Foundation

/// An event ready to store: its key, and its body as a chunk keeps it (`EventChunk`).
struct EventRow: Sendable {
    let taskID: String
    let seq: Int
    let eventID: Int64
    let ts: Date?
    let body: Body
    /// About what it takes in a chunk: its text (or JSON) and stream, and a record's bytes.
    let bytes: Int
    /// When it happened on our clock: its arrival if it came live, else its `ts` corrected.
    let countedAt: Date?
    let activity: ActivityKind
    /// What the event does to the task's lines (`TaskLines`): the event's as it came.
    let linePart: TaskLines.Part
    /// Its text was cut to fit: its lines are assembled from `linePart` in the batch (the
    /// chunk holds the cut text and its marker, which a catch-up would make lines of).
    let wasCut: Bool

    /// An output piece is kept as its text and stream; any other event as its wire JSON.
    enum Body: Sendable {
        case output(text: String, stream: String)
        case json(String)
    }

    /// What an event adds to the per-minute activity counts.
    enum ActivityKind { case none, output, completed, failed }

    /// `event` as stored, cut to `maxBytes` (`cutForCache`: its text cut, with a marker saying
    /// how much is not cached; the cut is halved until it fits, since escapes can make JSON
    /// longer than its text).
    init(_ event: TaskEvent, maxBytes: Int, serverClock: ClockOffset, encoder: JSONEncoder) throws(CacheError) {
        var budget = maxBytes / 2
        var body = try Self.body(of: event, encoder)
        wasCut = Self.size(of: body) > maxBytes
        while Self.size(of: body) > maxBytes && budget > 0 {
            body = try Self.body(of: event.cutForCache(maxTextBytes: budget), encoder)
            budget /= 2
        }
        taskID = event.taskID
        seq = event.seq
        eventID = event.eventID
        ts = event.ts
        self.body = body
        bytes = Self.size(of: body)
        countedAt = event.arrivedAt ?? event.ts.map(serverClock.local)
        linePart = TaskLines.Part(event.payload)
        switch event.payload {
        case .output: activity = .output
        case .status(let s, _, _) where s == .completed: activity = .completed
        case .status(let s, _, _) where s == .failed: activity = .failed
        default: activity = .none
        }
    }

    private static func body(of event: TaskEvent, _ encoder: JSONEncoder) throws(CacheError) -> Body {
        if event.type == .output, case .output(let text, let stream) = event.payload {
            return .output(text: text, stream: stream)
        }
        return .json(try CacheStore.encodeJSON(event, with: encoder))
    }

    /// A record's header, id and time take at most 21 bytes; 32 leaves room for the lengths.
    private static func size(of body: Body) -> Int {
        switch body {
        case .output(let text, let stream): text.utf8.count + stream.utf8.count + 32
        case .json(let json): json.utf8.count + 12
        }
    }
}
