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
        #"{"event_id":1,"task_id":"t\u0007x","seq":9223372036854775807,"type":"task.output","ts":null,"data":{"text":"\ud83d\ude00 \u00e9 \"q\" \\ \/","stream":"tool\u009b"},"extra":"[1,2]","x":true,"y":-1.5e-3}"#,
        #"{"event_id":1,"task_id":"t","seq":2,"type":"task.output","data":{"text":"","other":1.5e3}}"#,
        #"{"event_id":1,"task_id":"t","seq":2,"type":"task.output","ts":"not a date","data":{"text":"x"},"n":null,"f":false}"#,
    ]

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
    static let events: [TaskEvent] = [
        TaskEvent(
            eventID: 12, taskID: "t-1", seq: 3, type: .output, ts: Date(timeIntervalSince1970: 1_767_323_045.25),
            payload: .output(text: "plain line\n", stream: "assistant")),
        TaskEvent(
            eventID: -4, taskID: "q\"uote\\d", seq: Int.max, type: .output, ts: nil,
            payload: .output(text: "\u{1B}[1;31mred\u{1B}[0m \"x\" \\ / 日本語 😀\n\n", stream: "tool")),
        TaskEvent(eventID: 0, taskID: "", seq: 1, type: .output, payload: .output(text: "", stream: "")),
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

    @Test func otherPayloadsTakeTheCodablePath() {
        let status = TaskEvent(
            eventID: 1, taskID: "t", seq: 1, type: .status,
            payload: .status(status: .running, previous: nil, reason: nil))
        #expect(status.outputWireJSON == nil)
    }
}
