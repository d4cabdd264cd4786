import Foundation
import Testing

@testable import MakimaKit

@Suite struct TaskOutputBufferTests {
    @Test func joinsChunksThatSplitLines() {
        var b = TaskOutputBuffer()
        b.append([
            outputEvent("t", 1, "# Plan\nfirst ha"), outputEvent("t", 2, "lf\nsecond\n"), outputEvent("t", 3, "open"),
        ])
        #expect(b.lines.map(\.text) == ["# Plan", "first half", "second"])
        #expect(b.openLine?.text == "open")
        #expect(b.lineCount == 4)
        #expect(b.lastSeq == 3)
    }

    @Test func keepsOnlyTheNewestLinesAndCountsTheDropped() {
        var b = TaskOutputBuffer(capacity: 2000)
        let events = (1...2500).map { outputEvent("t", $0, "line \($0)\n") }
        b.append(events)
        #expect(b.lines.count == 2000)
        #expect(b.lines.first?.text == "line 501")
        #expect(b.lines.last?.text == "line 2500")
        #expect(b.droppedLines == 500)
        #expect(b.firstSeq == 501)
    }

    @Test func statusAndGateBecomeTheirOwnLines() {
        var b = TaskOutputBuffer()
        b.append([
            outputEvent("t", 1, "working"),
            TaskEvent(
                eventID: 2, taskID: "t", seq: 2, type: .completionGate,
                payload: .completionGate(ready: true, summary: "done", body: "ready: true")),
            TaskEvent(
                eventID: 3, taskID: "t", seq: 3, type: .status,
                payload: .status(status: .completed, previous: .running, reason: nil)),
        ])
        #expect(b.lines.count == 3)
        #expect(b.lines[0].text == "working")
        #expect(b.lines[1].kind == .completionGate(ready: true, summary: "done", body: "ready: true"))
        #expect(b.status == .completed)
    }

    /// The viewer may fetch a task's history (put in front) while the engine fills the same
    /// range as live events: what the buffer holds is not appended again.
    @Test func historyPutInFrontIsNotRepeatedByLaterEvents() {
        var b = TaskOutputBuffer()
        var older = TaskOutputBuffer(capacity: Int.max)
        older.append(
            (1...4).map { outputEvent("t", $0, "l\($0)\n") } + [
                TaskEvent(
                    eventID: 5, taskID: "t", seq: 5, type: .status,
                    payload: .status(status: .running, previous: .queued, reason: nil))
            ])
        b.prepend(older)
        #expect(b.lastSeq == 5)
        #expect(b.status == .running)
        b.append((3...7).map { outputEvent("t", $0, "l\($0)\n") })
        #expect(b.lines.map(\.text) == ["l1", "l2", "l3", "l4", "running", "l6", "l7"])
        #expect(b.lastSeq == 7)
    }
}

/// Older output read on demand: the bound grows with it up to the reading window, the
/// start is known, and closing the view lets it go.
@Suite struct TaskOutputReadingWindowTests {
    func older(_ seqs: ClosedRange<Int>) -> TaskOutputBuffer {
        var o = TaskOutputBuffer(capacity: Int.max)
        o.append(seqs.map { outputEvent("t", $0, "line \($0)\n") })
        return o
    }

    @Test func olderLinesFetchedForReadingStayWhileLiveOnesArrive() {
        var b = TaskOutputBuffer(capacity: 100)
        b.append((1...300).map { outputEvent("t", $0, "line \($0)\n") })
        #expect(b.firstSeq == 201)
        #expect(b.olderBefore == 201)
        b.prepend(older(1...200), from: 1)
        #expect(b.lines.count == 300)
        #expect(b.olderBefore == nil, "the output's start is held")
        b.append([outputEvent("t", 301, "line 301\n")])
        #expect(b.lines.first?.text == "line 1", "a live line does not trim what was fetched for reading")
        #expect(b.lines.count == 301)
        b.endReading()
        #expect(b.lines.count == 100)
        #expect(b.lines.first?.text == "line 202")
        #expect(b.olderBefore == 202)
    }

    @Test func cachedLinesPutInFrontKeepTheBound() {
        var b = TaskOutputBuffer(capacity: 100)
        b.append((151...200).map { outputEvent("t", $0, "line \($0)\n") })
        b.prepend(older(51...150))
        #expect(b.lines.count == 150)
        #expect(b.olderBefore == 51, "nothing was said about what is before the cache's lines")
        b.append([outputEvent("t", 201, "line 201\n")])
        #expect(b.lines.count == 100)
    }

    @Test func aWindowWithoutLinesStillMovesTheMarkBack() {
        var b = TaskOutputBuffer(capacity: 100)
        b.append((41...60).map { outputEvent("t", $0, "line \($0)\n") })
        // Seqs 21...40 were events with no line (unknown types): the next read starts below them.
        b.prepend(TaskOutputBuffer(capacity: Int.max), from: 21)
        #expect(b.olderBefore == 21)
        #expect(!b.olderLoading)
    }

    @Test func theReadingWindowIsBounded() {
        var b = TaskOutputBuffer(capacity: 10)
        let last = TaskOutputBuffer.readingWindow + 100
        b.append(((last - 9)...last).map { outputEvent("t", $0, "line \($0)\n") })
        b.prepend(older(1...(last - 10)), from: 1)
        #expect(b.lineCount == TaskOutputBuffer.readingWindow)
        #expect(b.readingWindowFull)
        #expect(b.olderBefore == 101, "older output is still on the server")
        #expect(b.lines.first?.text == "line 101")
    }
}

@Suite struct NotificationPolicyTests {
    let start = Date(timeIntervalSince1970: 1_000_000)

    func status(_ id: Int64, _ s: TaskStatus, at: Date?) -> TaskEvent {
        TaskEvent(
            eventID: id, taskID: "t\(id)", seq: 1, type: .status, ts: at,
            payload: .status(status: s, previous: .running, reason: nil))
    }

    @Test func notifiesCompletedFailedAndQuestionsOnce() {
        var p = NotificationPolicy()
        let later = start.addingTimeInterval(5)
        let q = TaskEvent(
            eventID: 9, taskID: "t9", seq: 4, type: .supervisorQuestion, ts: later,
            payload: .supervisorQuestion(questionID: "q", text: "Proceed?", directiveID: "d1"))
        let events = [
            status(1, .completed, at: later), status(2, .failed, at: later), status(3, .running, at: later), q,
        ]
        p.arrived(events)
        let first = p.notifications(for: events, taskTitles: ["t1": "Build"], receivedAt: later)
        #expect(first.map(\.kind) == [.taskCompleted, .taskFailed, .supervisorQuestion])
        #expect(first[0].body == "Build")
        #expect(first[0].link == .task("t1"))
        #expect(first[2].link == .directive("d1"))
        #expect(p.notifications(for: events, receivedAt: later).isEmpty)
    }

    @Test("an event notifies when it arrived live, whatever its timestamp; replays and fetched pages never do")
    func notifiesByArrival() {
        var p = NotificationPolicy()
        let hourAgo = start.addingTimeInterval(-3600)
        // Stamped an hour before now, arrived live: notifies.
        p.arrived([status(1, .failed, at: hourAgo)])
        #expect(p.notifications(for: [status(1, .failed, at: hourAgo)], receivedAt: start).count == 1)
        // Applied without arriving live (a resync's replay, a REST catch-up, the first fetch): silent.
        #expect(p.notifications(for: [status(2, .failed, at: start)], receivedAt: start).isEmpty)
        // The same event arriving again (replayed after a reconnect) never notifies twice.
        p.arrived([status(1, .failed, at: hourAgo)])
        #expect(p.notifications(for: [status(1, .failed, at: hourAgo)], receivedAt: start).isEmpty)
    }

    @Test("an event is known by its task and seq: another task's event under a reused event id still notifies")
    func reusedEventIDs() {
        var p = NotificationPolicy()
        func event(_ task: String, seq: Int, id: Int64, _ s: TaskStatus) -> TaskEvent {
            TaskEvent(
                eventID: id, taskID: task, seq: seq, type: .status, ts: start,
                payload: .status(status: s, previous: .running, reason: nil))
        }
        let ta = event("ta", seq: 3, id: 41, .completed)
        // Task tb's failure carrying ta's event id, in the same batch and in a later one.
        let tb = event("tb", seq: 7, id: 41, .failed)
        let tc = event("tc", seq: 2, id: 41, .failed)
        p.arrived([ta, tb])
        let first = p.notifications(for: [ta, tb], receivedAt: start)
        #expect(first.map(\.link) == [.task("ta"), .task("tb")])
        #expect(first.map(\.id) == [EventIdentity(taskID: "ta", seq: 3), EventIdentity(taskID: "tb", seq: 7)])
        p.arrived([tc])
        #expect(p.notifications(for: [tc], receivedAt: start).map(\.link) == [.task("tc")])
        // The same event again (the same task and seq, whatever its id) stays silent.
        let replay = event("tb", seq: 7, id: 99, .failed)
        p.arrived([replay, ta])
        #expect(p.notifications(for: [replay, ta], receivedAt: start).isEmpty)
    }

    @Test("the memory of event ids is bounded")
    func boundedMemory() {
        var p = NotificationPolicy()
        let n = NotificationPolicy.capacity * 3
        p.arrived((1...Int64(n)).map { status($0, .failed, at: start) })
        var ids = BoundedSet<Int64>(capacity: 10)
        for i in 1...100 { ids.insert(Int64(i)) }
        #expect(ids.count <= 10 && ids.contains(100) && !ids.contains(1))
        // The newest arrivals still notify.
        #expect(p.notifications(for: [status(Int64(n), .failed, at: start)], receivedAt: start).count == 1)
    }
}

@Suite struct DeepLinkTests {
    @Test func parsesAndPrints() {
        let kinds: [DeepLink.Kind] = [.task, .directive]
        #expect(DeepLink("makima://task/abc-1", among: kinds) == .task("abc-1"))
        #expect(DeepLink("MAKIMA://Directive/d7", among: kinds) == .directive("d7"))
        #expect(DeepLink("makima://task/", among: kinds) == nil)
        #expect(DeepLink("https://task/abc", among: kinds) == nil)
        #expect(DeepLink("makima://task/a\u{1B}[2J", among: kinds) == nil)
        #expect(DeepLink.task("x").description == "makima://task/x")
    }

    @Test func parsesOnlyTheKindsItIsGiven() {
        #expect(DeepLink("makima://contract/c1", among: [DeepLink.Kind.task, .directive]) == nil)
        #expect(DeepLink("makima://contract/c1", among: [DeepLink.Kind.contract]) == .contract("c1"))
    }

    @Test func aLinkKindNamesItsListKindAndHowItsItemIsFetched() {
        #expect(DeepLink.Kind.task.list.name == ListKinds.tasks.name && DeepLink.Kind.task.fetchedAlone)
        #expect(DeepLink.Kind.directive.list.name == ListKinds.directives.name && !DeepLink.Kind.directive.fetchedAlone)
        #expect(ListKinds.contracts.detailID(of: .contract("c1")) == "c1")
        #expect(ListKinds.contracts.detailID(of: .listen("c1")) == nil)
    }
}

@Suite struct TaskOutputBufferPrependTests {
    @Test func olderLinesGoInFrontWithoutDoubles() {
        var b = TaskOutputBuffer(capacity: 100)
        b.append((1...150).map { outputEvent("t", $0, "line \($0)\n") })
        #expect(b.firstSeq == 51)
        var older = TaskOutputBuffer(capacity: Int.max)
        older.append((31...55).map { outputEvent("t", $0, "line \($0)\n") })
        b.prepend(older)
        #expect(b.lines.first?.text == "line 31")
        #expect(b.lines.map(\.seq) == Array(31...150))
        #expect(b.droppedLines == 30)
    }
}
