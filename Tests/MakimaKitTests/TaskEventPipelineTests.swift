import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// The server's truth for these tests: every event of every task, served by seq.
struct EventLog {
    var events: [String: [TaskEvent]] = [:]
    var nextEventID: Int64 = 1
    mutating func emit(_ task: String, _ text: String) -> TaskEvent {
        let seq = (events[task]?.count ?? 0) + 1
        let e = outputEvent(task, seq, text, eventID: nextEventID)
        nextEventID += 1
        events[task, default: []].append(e)
        return e
    }
    func page(_ task: String, after: Int, limit: Int) -> TaskOutputPage {
        let items = (events[task] ?? []).filter { $0.seq > after }.prefix(limit)
        let json = try! MakimaJSON.encoder().encode(Array(items))
        return try! MakimaJSON.decode(TaskOutputPage.self, from: json)
    }
}

func frame(_ e: TaskEvent) -> String { String(decoding: try! MakimaJSON.encoder().encode(e), as: UTF8.self) }

@Suite struct TaskEventPipelineTests {
    @Test func lossyDuplicatedStreamEndsEqualToTheServer() throws {
        let log = Locked(EventLog())
        let received = Locked([String: [Int]]())
        let pipeline = TaskEventPipeline(
            lastSeen: [:], pageSize: 7,
            fetchPage: { task, after, limit in log.withLock { $0.page(task, after: after, limit: limit) } },
            onApplied: { list in received.withLock { r in for e in list { r[e.taskID, default: []].append(e.seq) } } })
        var rng = SeededGenerator(state: 7)
        _ = pipeline.resyncRequest()
        pipeline.receive(frame: #"{"type":"resync.done"}"#)
        for i in 0..<400 {
            let task = ["a", "b", "c"][Int(rng.next() % 3)]
            let e = log.withLock { $0.emit(task, "line \(i)\n") }
            switch rng.next() % 10 {
            case 0: continue  // lost in transit
            case 1:
                pipeline.receive(frame: frame(e))
                pipeline.receive(frame: frame(e))  // doubled
            default: pipeline.receive(frame: frame(e))
            }
        }
        // The last events of a task may have been lost with nothing after them to reveal
        // the hole: a reconnect's resync replays them. Replay everything after what we hold.
        let seen = pipeline.lastSeen
        _ = pipeline.resyncRequest()
        for (task, events) in log.withLock({ $0.events }) {
            for e in events where e.seq > (seen[task] ?? 0) { pipeline.receive(frame: frame(e)) }
        }
        pipeline.receive(frame: #"{"type":"resync.done"}"#)
        for _ in 0..<500 where pipeline.hasGaps { Thread.sleep(forTimeInterval: 0.01) }
        let truth = log.withLock { $0.events.mapValues { $0.map(\.seq) } }
        #expect(received.withLock { $0 } == truth)
        #expect(pipeline.counters.duplicatesDropped > 0)
        #expect(pipeline.counters.holeFills > 0)
        #expect(pipeline.counters.eventsLost == 0)
    }

    /// A socket read of frames in order is delivered as one batch, every event stamped with its
    /// arrival; one holding a duplicate and a gap is sorted out event by event, with the same
    /// history at the end.
    @Test func socketReadsInOrderOrNotDeliverEachEventOnceStamped() {
        let received = Locked([TaskEvent]())
        let batches = Locked(0)
        let pipeline = TaskEventPipeline(
            lastSeen: ["t": 2], fetchPage: { _, _, _ in throw FakeError(unauthorized: false) },
            onApplied: { list in
                batches.withLock { $0 += 1 }
                received.withLock { $0 += list }
            })
        pipeline.receive(frames: (3...6).map { frame(outputEvent("t", $0)) })
        #expect(batches.withLock { $0 } == 1)
        pipeline.receive(frames: [7, 7, 9, 8].map { frame(outputEvent("t", $0)) })
        let events = received.withLock { $0 }
        #expect(events.map(\.seq) == Array(3...9))
        #expect(events.allSatisfy { $0.arrivedAt != nil })
        #expect(pipeline.counters.duplicatesDropped == 1)
        #expect(pipeline.counters.eventsApplied == 7)
        #expect(pipeline.lastSeen["t"] == 9)
    }

    @Test func malformedAndUnknownFramesAreCountedAndSkipped() {
        let applied = Locked(0)
        let pipeline = TaskEventPipeline(
            lastSeen: [:], fetchPage: { _, _, _ in throw FakeError(unauthorized: false) },
            onApplied: { list in applied.withLock { $0 += list.count } })
        pipeline.receive(
            frame: #"{"event_id": 1, "task_id": "t", "seq": 1, "type": "task.output", "data": {"text": "hi"}"#)
        pipeline.receive(
            frame: #"{"event_id": 1, "task_id": "t", "seq": "x", "type": "task.output", "data": {"text": "hi"}}"#)
        pipeline.receive(frame: #"{"type": "mesh.mystery"}"#)
        pipeline.receive(frame: "")
        pipeline.receive(
            frame: #"{"event_id": 2, "task_id": "t", "seq": 1, "type": "task.output", "data": {"text": "ok"}}"#)
        #expect(pipeline.counters.malformedSkipped == 3)
        #expect(pipeline.counters.unknownTypes == 1)
        #expect(applied.withLock { $0 } == 1)
    }

    @Test func resyncNamesWhatIsHeld() throws {
        let pipeline = TaskEventPipeline(
            lastSeen: ["t1": 41], fetchPage: { _, _, _ in throw FakeError(unauthorized: false) },
            onApplied: { _ in })
        let json = try JSONSerialization.jsonObject(with: Data(pipeline.resyncRequest().utf8)) as? [String: Any]
        #expect(json?["type"] as? String == "resync")
        #expect((json?["last_seen"] as? [String: Int]) == ["t1": 41])
    }
}
