import Foundation
import Testing

@testable import MakimaKit

/// The hand decoder of `task.output` frames must agree with the Codable path on everything it
/// accepts, and leave everything else to it.
@Suite("Output frame decoder")
struct OutputFrameDecoderTests {
    static func codable(_ frame: String) -> TaskEvent? {
        try? MakimaJSON.decode(TaskEvent.self, from: Data(frame.utf8))
    }

    static let accepted: [String] = [
        #"{"event_id":7,"task_id":"t1","seq":3,"type":"task.output","ts":"2026-01-02T03:04:05.250Z","data":{"text":"hello\n","stream":"assistant"}}"#,
        #"{ "seq" : 1 , "data" : { "stream" : null , "text" : "a\u001b[31mred\u001b[0m\tb\r\n" } , "type" : "task.output" , "task_id" : 42 , "event_id" : -5 }"#,
        #"{"event_id":1,"task_id":"t.x:9","seq":9223372036854775807,"type":"task.output","ts":null,"data":{"text":"\ud83d\ude00 \u00e9 \"q\" \\ \/","stream":"tool\u009b"},"extra":"[1,2]","x":true,"y":-1.5e-3}"#,
        #"{"event_id":1,"task_id":"t","seq":2,"type":"task.output","data":{"text":"","other":1.5e3}}"#,
        #"{"event_id":1,"task_id":"t","seq":2,"type":"task.output","ts":"not a date","data":{"text":"x"},"n":null,"f":false}"#,
        // Padded or escaped timestamps take the String path of RFC3339.parse.
        #"{"event_id":1,"task_id":"t","seq":2,"type":"task.output","ts":" 2026-01-02T03:04:05+09:00 ","data":{"text":"x"}}"#,
        #"{"event_id":1,"task_id":"t","seq":2,"type":"task.output","ts":"2026-01-02T03:04:05.5\u005a","data":{"text":"x"}}"#,
    ]

    /// A stream's frames decoded with the previous frame's id at hand: the same events as
    /// decoding each alone, the id string shared while it repeats.
    @Test func aRepeatedTaskIDIsSharedAndEveryFrameStillDecodesAlike() throws {
        let frames = [
            #"{"event_id":1,"task_id":"task-a","seq":1,"type":"task.output","data":{"text":"x"}}"#,
            #"{"event_id":2,"task_id": "task-a" ,"seq":2,"type":"task.output","data":{"text":"y"}}"#,
            #"{"event_id":3,"task_id":"task-ab","seq":1,"type":"task.output","data":{"text":"z"}}"#,
            #"{"event_id":4,"task_id":7,"seq":1,"type":"task.output","data":{"text":"z"}}"#,
            #"{"event_id":5,"task_id":"7","seq":2,"type":"task.output","data":{"text":"z"}}"#,
            #"{"event_id":6,"task_id":"t\u0007x","seq":1,"type":"task.output","data":{"text":"x"}}"#,
            #"{"event_id":7,"task_id":"task-a","seq":3,"type":"task.output","data":{"text":"w"}}"#,
        ]
        var last: String?
        var ids: [String?] = []
        for frame in frames {
            let event = OutputFrameDecoder.decode(frame, reusingTaskID: &last)
            #expect(event == OutputFrameDecoder.decode(frame), "\(frame)")
            #expect(event == Self.codable(frame), "\(frame)")
            ids.append(event?.taskID)
        }
        #expect(ids == ["task-a", "task-a", "task-ab", "7", "7", nil, "task-a"])
        #expect(last == "task-a")
    }

    @Test("what it accepts, it decodes as the Codable path does", arguments: accepted)
    func agreesWithCodable(frame: String) throws {
        let fast = try #require(OutputFrameDecoder.decode(frame))
        let slow = try #require(Self.codable(frame))
        #expect(fast == slow)
        #expect(try StreamMessage.decode(frame) == .event(slow))
    }

    static let leftToCodable: [String] = [
        #"{"event_id":1.0,"task_id":"t","seq":1,"type":"task.output","data":{"text":"x"}}"#,  // fraction
        #"{"event_id":"1","task_id":"t","seq":1,"type":"task.output","data":{"text":"x"}}"#,  // id as string
        #"{"event_id":1,"task_id":"t","seq":0,"type":"task.output","data":{"text":"x"}}"#,  // seq < 1
        #"{"event_id":1,"task_id":"t","seq":1,"type":"task.status","data":{"status":"done"}}"#,  // other type
        #"{"event_id":1,"task_id":"t","seq":1,"type":"task.output","data":{}}"#,  // no text
        #"{"event_id":1,"task_id":"t","seq":1,"seq":2,"type":"task.output","data":{"text":"x"}}"#,  // duplicate
        #"{"event_id":1,"task_id":"t","seq":1,"type":"task.output","data":{"text":"\udc00"}}"#,  // lone surrogate
        #"{"event_id":1,"task_id":"t","seq":1,"type":"task.output","data":{"text":"x","meta":{"a":1}}}"#,  // nested
        #"{"event_id":1,"task_id":"t","seq":99999999999999999999,"type":"task.output","data":{"text":"x"}}"#,
        #"{"event_id":1,"task_id":"t","seq":1,"type":"task.output","data":{"text":"x"}} trailing"#,
        #"{"event_id":1,"task_id":"t\u0007x","seq":1,"type":"task.output","data":{"text":"x"}}"#,  // not an id
        #"{"type":"resync.done"}"#,
        "not json",
        "",
    ]

    @Test("anything else is left to the Codable path", arguments: leftToCodable)
    func declines(frame: String) {
        #expect(OutputFrameDecoder.decode(frame) == nil)
    }

    @Test("a malformed frame is still an error, a control message still a control message")
    func fallbackStillDecides() throws {
        #expect(throws: (any Error).self) { try StreamMessage.decode(#"{"event_id":1,"seq":1}"#) }
        #expect(try StreamMessage.decode(#"{"type":"resync.done"}"#) == .resyncDone)
        let viaCodable = try StreamMessage.decode(
            #"{"event_id":"5","task_id":"t","seq":"2","type":"task.output","data":{"text":"x"}}"#)
        guard case .event(let e) = viaCodable else {
            Issue.record("not an event")
            return
        }
        #expect(e.eventID == 5 && e.seq == 2)
    }
}

/// The cache's hand-written JSON for output events says what JSONEncoder says, and reads back.
@Suite("Output wire JSON")
struct OutputWireJSONTests {
    // Ids are tokens by the time an event reaches the cache (ResourceID), so only the text
    // and the stream need escaping here.
    static let events: [TaskEvent] = [
        TaskEvent(
            eventID: 12, taskID: "t-1", seq: 3, type: .output, ts: Date(timeIntervalSince1970: 1_767_323_045.25),
            payload: .output(text: "plain line\n", stream: "assistant")),
        TaskEvent(
            eventID: -4, taskID: "q.uote:d_9", seq: Int.max, type: .output, ts: nil,
            payload: .output(text: "\u{1B}[1;31mred\u{1B}[0m \"x\" \\ / 日本語 😀\n\n", stream: "tool")),
        TaskEvent(eventID: 0, taskID: "0", seq: 1, type: .output, payload: .output(text: "", stream: "")),
    ]

    @Test("same JSON object as the Codable encoding; decodes back to the same event", arguments: events)
    func matchesEncoder(event: TaskEvent) throws {
        let hand = try #require(event.outputWireJSON)
        let viaEncoder = String(decoding: try MakimaJSON.encoder().encode(event), as: UTF8.self)
        let a = try JSONSerialization.jsonObject(with: Data(hand.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(viaEncoder.utf8)) as? NSDictionary
        #expect(a != nil && a == b)
        #expect(OutputFrameDecoder.decode(hand) == event)
        #expect(try MakimaJSON.decode(TaskEvent.self, from: Data(hand.utf8)) == event)
    }

    /// The escaping scan skips eight bytes at a time: a quote, backslash or control at any
    /// offset of a long text (after accents too) is still escaped.
    @Test func escapesAreFoundAtEveryOffsetOfALongText() throws {
        let plain = "the quick brown fox é jumps over the lazy dog"
        for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\t"] {
            for offset in 0...plain.utf8.count {
                var bytes = Array(plain.utf8)
                bytes.insert(contentsOf: Array(special.utf8), at: offset)
                let text = String(decoding: bytes, as: UTF8.self)
                let event = TaskEvent(
                    eventID: 1, taskID: "t", seq: 2, type: .output, payload: .output(text: text, stream: "assistant"))
                let hand = try #require(event.outputWireJSON)
                let object = try JSONSerialization.jsonObject(with: Data(hand.utf8)) as? [String: Any]
                let data = object?["data"] as? [String: Any]
                #expect(data?["text"] as? String == text, "\(special.unicodeScalars.map(\.value)) at \(offset)")
            }
        }
    }

    @Test func otherPayloadsTakeTheCodablePath() {
        let status = TaskEvent(
            eventID: 1, taskID: "t", seq: 1, type: .status,
            payload: .status(status: .running, previous: nil, reason: nil))
        #expect(status.outputWireJSON == nil)
    }
}
