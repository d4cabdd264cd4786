import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// The threads of this process right now.
func threadCount() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0 }

/// Requests the dev server logged for a path fragment (one access-log line per request).
func loggedRequests(_ server: DevServer, containing fragment: String) -> Int {
    let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
    return log.split(separator: "\n").filter { $0.contains(" GET ") && $0.contains(fragment) }.count
}

/// The client against the dev server's hostile modes (`/_dev/hostile/*`, `/_dev/fail`).
@Suite(.serialized) struct HostileServerSyncTests {
    /// `connect: false` leaves the WebSocket closed: tasks are only fetched when opened.
    func start(
        seed: Int, cache useCache: Bool = false, connect: Bool = true,
        limits: TaskEventPipeline.Limits = TaskEventPipeline.Limits()
    ) throws -> RecordedEngine {
        var options = fastReconnect()
        options.fetchLimits = limits
        let r = try recordedEngine(seed: seed, cache: useCache, options: options)
        if connect {
            #expect(r.startOnline(within: 20))
            // The lists every open fetches are done before a test injects REST faults.
            #expect(r.log.waitUntil(20) { options.openQueries.allSatisfy { !r.engine.isRefreshing($0) } })
        }
        return r
    }

    func newTask(_ server: DevServer, events: Int) throws -> String {
        let task = try server.controlJSON(path: "/_dev/task", query: ["status": "running"])["id"] as! String
        if events > 0 { _ = try server.control(path: "/_dev/burst", query: ["task_id": task, "count": "\(events)"]) }
        return task
    }

    /// A frame with seq 2^63 - 1 for an unknown task, then an empty `/output` page, killed
    /// every client with an arithmetic overflow.
    @Test func anAbsurdSeqThenAnEmptyPageIsSkippedAndStreamingGoesOn() throws {
        let r = try start(seed: 31)
        defer { r.stop() }
        _ = try r.server.control(path: "/_dev/hostile/output", query: ["mode": "empty"])
        _ = try r.server.control(path: "/_dev/hostile/absurd_seq")
        _ = try r.server.control(path: "/_dev/hostile/absurd_seq", query: ["seq": "\(1 << 52)"])
        #expect(r.log.waitUntil(20) { r.engine.counters.seqRejected == 1 && !r.engine.hasGaps })
        _ = try r.server.control(path: "/_dev/hostile/output", query: ["mode": "normal"])
        let task = try newTask(r.server, events: 50)
        let truth = try serverEvents(r.server, task).map(\.seq)
        #expect(r.log.waitUntil(20) { r.log.events(task).map(\.seq) == truth })
        #expect(r.engine.counters.eventsLost == 0)
    }

    /// Each task with a gap used to cost a thread of its own while the server hung: fills share one pool.
    @Test func aGapFloodWhileTheServerHangsUsesAFewThreads() throws {
        let r = try start(seed: 32)
        defer { r.stop() }
        _ = try r.server.control(path: "/_dev/latency", query: ["ms": "400"])
        let flood = try r.server.controlJSON(path: "/_dev/hostile/gap_flood", query: ["tasks": "200", "events": "3"])
        let tasks = flood["tasks"] as! [String]
        // Other suites run in this process at the same time, so the engine's own count is
        // what is asserted; the whole process is only reported.
        let before = threadCount()
        var peak = 0
        let until = Date().addingTimeInterval(3)
        while Date() < until {
            peak = max(peak, threadCount())
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(r.engine.hasGaps, "the fills are still hanging on the server")
        #expect(r.engine.outputFetchThreads.peak <= TaskEventPipeline.Limits().workers)
        #expect(r.engine.outputFetchThreads.peak >= 1)
        if peak - before > 100 { Issue.record("process threads grew from \(before) to \(peak)") }
        _ = try r.server.control(path: "/_dev/latency", query: ["ms": "0"])
        for task in tasks.prefix(5) {
            let truth = try serverEvents(r.server, task).map(\.seq)
            #expect(r.log.waitUntil(60) { r.log.events(task).map(\.seq) == truth })
        }
        #expect(r.log.waitUntil(60) { !r.engine.hasGaps })
        #expect(r.engine.counters.eventsLost == 0)
    }

    /// A server ignoring `after_seq` made the hole fill re-request without pause, forever.
    @Test func aFillAgainstAServerIgnoringAfterSeqGivesUpVisibly() throws {
        let r = try start(seed: 33)
        defer { r.stop() }
        let task = try newTask(r.server, events: 700)
        #expect(r.log.waitUntil(20) { r.log.events(task).count >= 700 })
        _ = try r.server.control(path: "/_dev/hostile/output", query: ["mode": "ignore_after_seq"])
        let before = loggedRequests(r.server, containing: "/output")
        _ = try r.server.control(path: "/_dev/hostile/gap_flood", query: ["task_id": task, "events": "3"])
        #expect(r.log.waitUntil(30) { r.engine.counters.fetchesAbandoned == 1 })
        // The counter moves before the notice is posted and drained: wait for the notice too.
        #expect(
            r.log.waitUntil(10) { r.log.noticeTexts.contains { $0.contains("missing output could not be fetched") } })
        Thread.sleep(forTimeInterval: 1)
        let requests = loggedRequests(r.server, containing: "/output") - before
        #expect(requests >= 2 && requests <= 8, "\(requests) page requests")
    }

    /// An output page starting above `after + 1` made catch-up loop without pause and
    /// the task view stayed on "loading output…".
    @Test func aCatchUpWhosePagesStartPastTheMarkFinishes() throws {
        let r = try start(seed: 34, connect: false)
        defer { r.stop() }
        let task = try newTask(r.server, events: 40)
        _ = try r.server.control(path: "/_dev/hostile/output", query: ["mode": "skip_ahead", "skip": "5"])
        r.engine.follow(taskID: task)
        #expect(r.log.waitUntil(30) { r.log.caughtUpAt(task) != nil })
        let seqs = r.log.events(task).map(\.seq)
        let last = try serverEvents(r.server, task).last?.seq ?? 0
        #expect(seqs.last == last)
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
        #expect(r.engine.counters.eventsLost >= 5)
        #expect(loggedRequests(r.server, containing: "/output") <= 10)
    }

    /// `Retry-After` on a 503 is honoured: the catch-up waits it out instead of retrying at once.
    @Test func aCatchUpWaitsOutRetryAfter() throws {
        let r = try start(seed: 35, connect: false)
        defer { r.stop() }
        let task = try newTask(r.server, events: 10)
        // Every event the server wrote: its 10 lines come in pieces, several events each.
        let truth = try serverEvents(r.server, task).map(\.seq)
        _ = try r.server.control(path: "/_dev/fail", query: ["count": "1", "status": "503", "retry_after": "2"])
        let asked = Date()
        r.engine.follow(taskID: task)
        #expect(r.log.waitUntil(30) { r.log.caughtUpAt(task) != nil })
        let waited = (r.log.caughtUpAt(task) ?? asked).timeIntervalSince(asked)
        #expect(waited >= 1.9, "caught up after \(waited) s")
        #expect(r.log.events(task).map(\.seq) == truth)
    }

    /// A 429 with `Retry-After` holds that list: neither polling nor the refresh key asks again.
    @Test func aThrottledListIsNotAskedAgainBeforeRetryAfter() throws {
        let r = try start(seed: 36)
        defer { r.stop() }
        _ = try r.server.control(path: "/_dev/fail", query: ["count": "1", "status": "429", "retry_after": "120"])
        #expect(r.engine.refresh(.daemons))
        #expect(r.log.waitUntil(20) { !r.engine.isRefreshing(.daemons) })
        #expect(!r.engine.refresh(.daemons))
        #expect(!r.engine.refresh(.daemons, force: true))
        #expect(r.engine.refresh(.contracts(status: nil)))
    }

    /// On a full disk `watch` printed the same notice once per failed write.
    @Test func aFullDiskIsToldOnceNotPerWrite() throws {
        let r = try start(seed: 37, cache: true)
        defer { r.stop() }
        let cache = try #require(r.cache)
        try cache.limitSize(pages: try cache.pageCount() + 2)
        let task = try newTask(r.server, events: 0)
        for _ in 0..<20 {
            _ = try r.server.control(path: "/_dev/burst", query: ["task_id": task, "count": "300"])
            r.engine.flushCache()
            _ = r.engine.refresh(.daemons, force: true)
        }
        #expect(r.log.waitUntil(20) { r.log.events(task).count >= 6_000 })
        r.engine.flushCache()
        Thread.sleep(forTimeInterval: 0.5)
        let full = r.log.noticeTexts.filter { $0.contains("disk full") }
        #expect(full.count == 1, "\(r.log.noticeTexts)")
    }

    /// An event whose WebSocket bytes are not UTF-8, replayed on every resync: wslay closed
    /// with 1007 and the client reconnected forever, never getting past it.
    @Test func anInvalidUTF8EventInEveryReplayIsReadLeniently() throws {
        let server = try DevServer(seed: 38, rate: 0)
        let task = try newTask(server, events: 5)
        let poisoned = try server.controlJSON(path: "/_dev/hostile/poison", query: ["task_id": task])["seq"] as! Int
        _ = try server.control(path: "/_dev/burst", query: ["task_id": task, "count": "5"])
        let log = OutboxRecorder()
        defer { log.stop() }
        let engine = try SyncEngine(
            client: try server.client(), apiKey: server.apiKey, cache: nil, outbox: log.outbox,
            options: fastReconnect(), lastSeen: [task: 0])
        engine.start()
        defer { engine.stop() }
        let truth = try serverEvents(server, task).map(\.seq)
        #expect(log.waitUntil(20) { log.events(task).map(\.seq) == truth })
        Thread.sleep(forTimeInterval: 1)
        #expect(log.onlineCount == 1, "no reconnect")
        #expect(engine.connectionStats.connections.textBytesRepaired == 3)
        let text = log.events(task).first { $0.seq == poisoned }.map { e -> String in
            if case .output(let t, _) = e.payload { return t }
            return ""
        }
        #expect(text == "before ???( after\n")
    }

    /// Without `resync.done`, events held behind a gap waited forever: the wait times out and
    /// the gap is filled over REST.
    @Test func aReplayWithoutResyncDoneStillFillsItsGaps() throws {
        var limits = TaskEventPipeline.Limits()
        limits.replayTimeout = 1
        let r = try start(seed: 39, limits: limits)
        defer { r.stop() }
        let task = try newTask(r.server, events: 20)
        let written = try serverEvents(r.server, task).map(\.seq)
        #expect(r.log.waitUntil(20) { r.log.events(task).map(\.seq) == written })
        _ = try r.server.control(path: "/_dev/hostile/no_resync_done", query: ["on": "true"])
        _ = try r.server.control(path: "/_dev/drop_ws")
        #expect(r.log.waitUntil(20) { r.log.onlineCount >= 2 })
        _ = try r.server.control(path: "/_dev/hostile/gap_flood", query: ["task_id": task, "events": "5"])
        let truth = try serverEvents(r.server, task).map(\.seq)
        #expect(r.log.waitUntil(30) { r.log.events(task).map(\.seq) == truth })
        #expect(r.engine.counters.resyncTimeouts >= 1)
        #expect(!r.engine.hasGaps)
    }
}
