import Foundation

/// One text frame from `/mesh/tasks/subscribe`: a task event, or a control message.
public enum StreamMessage: Sendable, Equatable {
    case event(TaskEvent)
    case resyncDone
    /// A well-formed message of a type this client does not know (kept for the counters).
    case unknownControl(String)

    /// Decodes a frame; malformed frames throw a `DecodingError` naming the problem.
    public static func decode(_ text: String) throws -> StreamMessage {
        var unused: String?
        return try decode(text, reusingTaskID: &unused)
    }

    /// As `decode`, sharing the task id string with the previous frame's when the bytes are the
    /// same (see `OutputFrameDecoder.decode(_:reusingTaskID:)`).
    static func decode(_ text: String, reusingTaskID taskID: inout String?) throws -> StreamMessage {
        if let event = OutputFrameDecoder.decode(text, reusingTaskID: &taskID) { return .event(event) }
        let data = Data(text.utf8)
        let probe = try MakimaJSON.decode(Probe.self, from: data)
        if probe.hasEventID { return .event(try MakimaJSON.decode(TaskEvent.self, from: data)) }
        switch probe.type {
        case "resync.done": return .resyncDone
        case let t?: return .unknownControl(UntrustedText.clean(t))
        case nil:
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "message has neither 'event_id' nor 'type'"))
        }
    }

    private struct Probe: Decodable {
        var hasEventID: Bool
        var type: String?
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            hasEventID = c.contains(AnyKey("event_id"))
            type = try? c.decodeIfPresent(String.self, forKey: AnyKey("type"))
        }
    }

    /// `{"type":"resync","last_seen":{…}}`, sent on every (re)connect.
    public static func resyncRequest(lastSeen: [String: Int]) -> String {
        let body: [String: Any] = ["type": "resync", "last_seen": lastSeen]
        let data =
            (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))
            ?? Data(#"{"type":"resync","last_seen":{}}"#.utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
