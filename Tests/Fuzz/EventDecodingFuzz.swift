import Foundation
import MakimaKit

/// Frames from the task-event WebSocket and pages of `/output`, decoded the tolerant way.
/// Invariants: decoding never traps; a decoded event holds no terminal control (output text
/// keeps only what `cleanKeepingSGR` keeps); its `seq` is at least 1; and what the cache stores (the event
/// encoded again) reads back as the same event, so a restart shows what was seen.
enum EventDecodingFuzz {
    static func check(_ bytes: [UInt8]) -> String? {
        // The WebSocket hands text frames over as String; a page comes from REST as bytes.
        var events: [TaskEvent] = []
        if case .event(let e)? = try? StreamMessage.decode(String(decoding: bytes, as: UTF8.self)) { events.append(e) }
        if let page = try? MakimaJSON.decode(TaskOutputPage.self, from: Data(bytes)) {
            events.append(contentsOf: page.events)
        }
        for event in events {
            if let problem = checkEvent(event) { return "event \(event.eventID)/\(event.seq): \(problem)" }
        }
        return nil
    }

    static func checkEvent(_ e: TaskEvent) -> String? {
        if e.seq < 1 { return "seq \(e.seq) below 1" }
        var fields: [(String, String, Bool)] = [("task_id", e.taskID, false), ("type", e.type.rawValue, false)]
        switch e.payload {
        case .output(let text, let stream): fields += [("text", text, true), ("stream", stream, false)]
        case .status(let status, let previous, let reason):
            fields += [("status", status.rawValue, false), ("previous", previous?.rawValue ?? "", false)]
            fields += [("reason", reason ?? "", false)]
        case .completionGate(_, let summary, let body):
            fields += [("summary", summary ?? "", false), ("body", body, false)]
        case .supervisorQuestion(let qid, let text, let did):
            fields += [("question_id", qid, false), ("text", text, false), ("directive_id", did ?? "", false)]
        case .unknown: break
        }
        for (name, value, sgr) in fields {
            if let bad = Invariant.firstControl(in: value, keptSGR: sgr) { return "\(name) holds \(bad)" }
        }
        return roundTrip(e)
    }

    /// The cache's path: encode, decode, encode again; the event and its bytes must be stable.
    private static func roundTrip(_ e: TaskEvent) -> String? {
        let encoder = MakimaJSON.encoder()
        guard let first = try? encoder.encode(e) else { return "cannot be encoded for the cache" }
        let back: TaskEvent
        do { back = try MakimaJSON.decode(TaskEvent.self, from: first) } catch {
            return "its cached form does not decode: \(error)"
        }
        var a = e
        var b = back
        if let x = a.ts {
            guard let y = b.ts, abs(x.timeIntervalSince(y)) <= 0.001 else { return "ts lost in the cache" }
        } else if b.ts != nil {
            return "ts appeared in the cache"
        }
        a.ts = nil
        b.ts = nil
        if a != b { return "changed in the cache" }
        guard let second = try? encoder.encode(back), second == first else { return "cached bytes not stable" }
        return nil
    }
}
