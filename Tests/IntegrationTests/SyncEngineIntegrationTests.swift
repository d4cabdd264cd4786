import Foundation
import Synchronization
import TestSupport
import Testing

@testable import MakimaKit

/// Collects what the engine delivers, on a consumer thread, as the UI thread would.
final class OutboxRecorder: Sendable {
    let outbox = SyncOutbox()
    private let events = Mutex([String: [TaskEvent]]())
    private let statuses = Mutex([ConnectionStatus.Phase]())
    private let notices = Mutex([String]())
    /// The ids of each list as last delivered, and when each task's catch-up ended.
    private let lists = Mutex([ListQuery: [String]]())
    private let caughtUp = Mutex([String: Date]())
    private let done = Atomic<Bool>(false)

    init() {
        Thread.detachNewThread { [self] in
            while !done.load(ordering: .relaxed) {
                for u in outbox.wait(until: Date().addingTimeInterval(0.2)) {
                    switch u {
                    case .events(let list):
                        events.withLock { e in for x in list { e[x.taskID, default: []].append(x) } }
                    case .connection(let s): statuses.withLock { $0.append(s.phase) }
                    case .notice(let n): notices.withLock { $0.append(n) }
                    case .unauthorized(let m): notices.withLock { $0.append("401: " + m) }
                    case .list(let q, let payload, _, _):
                        lists.withLock { $0[q] = payload.items(as: MeshTask.self)?.map(\.id) }
                    case .outputCaughtUp(let task): caughtUp.withLock { $0[task] = Date() }
                    default: break
                    }
                }
            }
        }
    }

    func stop() { done.store(true, ordering: .relaxed) }
    func events(_ task: String) -> [TaskEvent] { events.withLock { $0[task] ?? [] } }
    var tasks: [String] { events.withLock { Array($0.keys) } }
    var unauthorizedCount: Int { notices.withLock { $0.filter { $0.hasPrefix("401: ") }.count } }
    var onlineCount: Int { statuses.withLock { $0.filter { $0 == .online }.count } }
    var isOffline: Bool {
        statuses.withLock { if case .offline = $0.last { true } else { false } }
    }
    func list(_ query: ListQuery) -> [String]? { lists.withLock { $0[query] } }
    var noticeTexts: [String] { notices.withLock { $0 } }
    func hasCaughtUp(_ task: String) -> Bool { caughtUpAt(task) != nil }
    func caughtUpAt(_ task: String) -> Date? { caughtUp.withLock { $0[task] } }

    func waitUntil(_ timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }
}

/// The server's truth for a task, as `/_dev/events` lists it.
func serverEvents(_ server: DevServer, _ task: String) throws -> [TaskEvent] {
    let data = try server.control(method: .get, path: "/_dev/events", query: ["task_id": task])
    return try MakimaJSON.decode(ListEnvelope<TaskEvent>.self, from: data).items
}

func fastReconnect() -> SyncEngine.Options {
    var o = SyncEngine.Options()
    o.backoff = BackoffPolicy(initial: 0.05, multiplier: 2, cap: 0.4, jitter: 0.2, healthyAfter: 1)
    return o
}

/// A sync engine against a dev server of its own, delivering to a recorder; `stop()` ends the
/// engine, then the recorder.
struct RecordedEngine {
    let server: DevServer
    let log: OutboxRecorder
    let engine: SyncEngine
    let dir: TempDirectory
    let cache: CacheStore?

    func stop() {
        engine.stop()
        log.stop()
    }

    /// Starts the engine; true once it is online within the timeout.
    func startOnline(within timeout: TimeInterval) -> Bool {
        engine.start()
        return log.waitUntil(timeout) { log.onlineCount >= 1 }
    }
}

/// A `RecordedEngine`, not started, on a new dev server with the seed (no simulation), with a
/// cache of its own when `cache` is true.
func recordedEngine(seed: Int, cache useCache: Bool, options: SyncEngine.Options = fastReconnect()) throws
    -> RecordedEngine
{
    let server = try DevServer(seed: seed, rate: 0)
    let dir = TempDirectory()
    let cache = useCache ? try CacheStore.open(file: URL(fileURLWithPath: dir.sub("cache.sqlite"))).store : nil
    let log = OutboxRecorder()
    do {
        let engine = try SyncEngine(
            client: try server.client(), apiKey: server.apiKey, cache: cache, outbox: log.outbox, options: options)
        return RecordedEngine(server: server, log: log, engine: engine, dir: dir, cache: cache)
    } catch {
        log.stop()
        throw error
    }
}

@Suite(.serialized) struct SyncEngineIntegrationTests {
    @Test func streamSurvivesTwentyDropsAndARestartWithNothingLostOrDoubled() throws {
        let recorded = try recordedEngine(seed: 11, cache: true)
        defer { recorded.stop() }
        #expect(recorded.startOnline(within: 10))
        let (server, rec, engine) = (recorded.server, recorded.log, recorded.engine)
        let cache = try #require(recorded.cache)

        let task = try server.controlJSON(path: "/_dev/task", query: ["status": "running"])["id"] as! String
        var rng = SystemRandomNumberGenerator()
        for round in 1...20 {
            _ = try server.control(
                path: "/_dev/burst", query: ["task_id": task, "count": String(Int.random(in: 20...200, using: &rng))])
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.05, using: &rng))
            let onlineBefore = rec.onlineCount
            if round == 10 {
                try server.restart()
            } else {
                _ = try server.control(path: "/_dev/drop_ws")
            }
            // Events emitted while the client is away come back through resync.
            _ = try server.control(
                path: "/_dev/burst", query: ["task_id": task, "count": String(Int.random(in: 1...50, using: &rng))])
            // The next drop must hit a live connection, or it would not count as one.
            #expect(rec.waitUntil(15) { rec.onlineCount > onlineBefore }, "reconnected after drop \(round)")
        }
        _ = try server.control(path: "/_dev/task/\(task)/status", query: ["status": "completed"])
        let truth = try serverEvents(server, task)
        #expect(rec.waitUntil(60) { rec.events(task).count >= truth.count && !engine.hasGaps })

        let got = rec.events(task)
        #expect(
            got.map(\.seq) == Array(1...truth.count), "lost or doubled: got \(got.count), server has \(truth.count)")
        #expect(got == truth)
        // Every other task the engine saw matches the server too.
        for other in rec.tasks where other != task && !other.hasPrefix("_dev") {
            let t = try serverEvents(server, other)
            #expect(rec.events(other) == t, "task \(other)")
        }
        #expect(rec.onlineCount >= 20, "reconnected after every drop (online \(rec.onlineCount) times)")
        #expect(engine.counters.eventsLost == 0)
        engine.flushCache()
        let cached = try cache.latestEvents(taskID: task, limit: 2000)
        // The cache keeps timestamps to the millisecond; everything else is exact.
        func key(_ e: TaskEvent) -> String { "\(e.eventID) \(e.seq) \(e.payload)" }
        #expect(cached.map(key) == truth.suffix(2000).map(key))
        #expect(cache.integrityCheck())
    }

    @Test func logsFollowPrintsTheServersOutputByteForByte() throws {
        let server = try DevServer(seed: 12, rate: 0)
        let home = TempDirectory()
        let homePath = home.path
        let task = try server.controlJSON(path: "/_dev/task", query: ["status": "running"])["id"] as! String
        _ = try server.control(path: "/_dev/burst", query: ["task_id": task, "count": "40"])
        let result = Mutex<CLIRunner.Result?>(nil)
        let env = ["MAKIMA_SERVER_URL": server.baseURL.absoluteString, "MAKIMA_API_KEY": server.apiKey.secret]
        let runner = Thread {
            let r = try? CLIRunner.run(["logs", "--follow", task], environment: env, home: homePath)
            result.withLock { $0 = r }
        }
        runner.start()
        Thread.sleep(forTimeInterval: 1.0)
        for _ in 1...5 {
            _ = try server.control(path: "/_dev/burst", query: ["task_id": task, "count": "60"])
            _ = try server.control(path: "/_dev/drop_ws")
            Thread.sleep(forTimeInterval: 0.2)
        }
        _ = try server.control(path: "/_dev/task/\(task)/status", query: ["status": "completed"])
        let end = Date().addingTimeInterval(60)
        while result.withLock({ $0 == nil }) && Date() < end { Thread.sleep(forTimeInterval: 0.1) }
        let r = try #require(result.withLock { $0 })
        let expected = UntrustedText.stripSGR(
            UntrustedText.cleanKeepingSGR(
                String(
                    decoding: try server.control(method: .get, path: "/_dev/output", query: ["task_id": task]),
                    as: UTF8.self)))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.utf8.count == expected.utf8.count)
        #expect(r.stdout == expected)
        #expect(!r.stderr.contains(server.apiKey.secret) && !r.stdout.contains(server.apiKey.secret))
    }

    @Test func malformedFramesAreCountedAndTheStreamContinues() throws {
        let server = try DevServer(seed: 13, rate: 0)
        let rec = OutboxRecorder()
        defer { rec.stop() }
        let engine = try SyncEngine(
            client: try server.client(), apiKey: server.apiKey, cache: nil, outbox: rec.outbox, options: fastReconnect()
        )
        engine.start()
        defer { engine.stop() }
        #expect(rec.waitUntil(10) { rec.onlineCount >= 1 })
        let task = try server.controlJSON(path: "/_dev/task", query: ["status": "running"])["id"] as! String
        for kind in ["truncated", "wrong_types", "unknown_type", "binary", "huge", "invalid_utf8"] {
            _ = try server.control(path: "/_dev/malformed", query: ["kind": kind])
            _ = try server.control(path: "/_dev/burst", query: ["task_id": task, "count": "10"])
        }
        let truth = try serverEvents(server, task)
        #expect(rec.waitUntil(30) { rec.events(task).count >= truth.count && !engine.hasGaps })
        #expect(rec.events(task) == truth)
        let c = engine.counters
        #expect(c.malformedSkipped >= 2, "truncated and wrong_types: \(c)")
        #expect(c.unknownTypes >= 1)
        let ws = engine.connectionStats.connections
        #expect(ws.binaryMessagesReceived >= 1)
        #expect(ws.oversizeRejected >= 1)
    }

    @Test func unauthorizedUpgradeStopsRetryingAndAsksForReauthentication() throws {
        let server = try DevServer(seed: 14, rate: 0)
        let rec = OutboxRecorder()
        defer { rec.stop() }
        _ = try server.control(path: "/_dev/unauthorized", query: ["on": "true"])
        let engine = try SyncEngine(
            client: try server.client(), apiKey: server.apiKey, cache: nil, outbox: rec.outbox, options: fastReconnect()
        )
        engine.start()
        defer { engine.stop() }
        engine.refresh(.daemons)
        #expect(rec.waitUntil(10) { engine.connectionStats.attempts >= 1 && !engine.refresh(.daemons, force: true) })
        Thread.sleep(forTimeInterval: 1)
        #expect(engine.connectionStats.attempts == 1, "no retry after 401")
        #expect(rec.unauthorizedCount >= 2, "both the WebSocket and polling report the 401")
        #expect(rec.onlineCount == 0)
    }

    /// A task that started and finished while the socket was down sends nothing on the socket
    /// after the reconnect (the resync replays only tasks the client has seen): the reconnect
    /// fetches Home's task lists (the newest page among them), so the task is in them and in
    /// the cache, and its output comes over REST when its view opens, into the cache too. The
    /// whole task list is read when a pane shows it (the dashboard marks it stale).
    @Test func aTaskBornAndFinishedWhileOfflineIsLearntOnReconnect() throws {
        let recorded = try recordedEngine(seed: 17, cache: true)
        defer { recorded.stop() }
        #expect(recorded.startOnline(within: 20))
        let (server, rec, engine) = (recorded.server, recorded.log, recorded.engine)
        let cache = try #require(recorded.cache)

        // Offline: the socket is dropped and every upgrade refused until the faults are reset.
        _ = try server.control(path: "/_dev/ws_reject", query: ["status": "503", "count": "100000"])
        _ = try server.control(path: "/_dev/drop_ws")
        #expect(rec.waitUntil(20) { rec.isOffline })
        let onlineBefore = rec.onlineCount
        let task = try server.controlJSON(path: "/_dev/task", query: ["status": "running"])["id"] as! String
        _ = try server.control(path: "/_dev/burst", query: ["task_id": task, "count": "40"])
        _ = try server.control(path: "/_dev/task/\(task)/status", query: ["status": "completed"])
        let truth = try serverEvents(server, task)
        #expect(truth.count >= 42)

        _ = try server.control(path: "/_dev/reset")
        engine.retryNow()
        #expect(rec.waitUntil(30) { rec.onlineCount > onlineBefore }, "reconnected")
        // Task lists stream into the cache's task table (the stores get the list's state).
        let newest = ListQuery.homeRecentTasks
        let table = TaskTable.reading(cache.file)
        #expect(
            rec.waitUntil(30) { table.task(id: task)?.status == .completed },
            "the reconnect fetched Home's newest tasks into the cache's task table")
        #expect(rec.waitUntil(30) { !engine.isRefreshing(newest) })
        #expect(rec.events(task).isEmpty, "nothing of it came on the socket")

        // Its view opens: the output comes over REST, into the stores and the cache.
        engine.follow(taskID: task)
        #expect(rec.waitUntil(30) { rec.hasCaughtUp(task) })
        #expect(rec.events(task) == truth)
        engine.flushCache()
        func key(_ e: TaskEvent) -> String { "\(e.eventID) \(e.seq) \(e.payload)" }
        #expect(try cache.events(taskID: task, afterSeq: 0, limit: 2000).map(key) == truth.map(key))
    }

    /// A running task with `lines` burst lines on the dev server, and the engine's one answer
    /// to `loadOlderOutput(before:count:)` for it.
    func olderOutput(lines: Int, before: Int, count: Int) throws -> (
        server: DevServer, task: String, answer: (events: [TaskEvent], from: Int?)?
    ) {
        let server = try DevServer(seed: 16, rate: 0)
        let task = try server.controlJSON(path: "/_dev/task", query: ["status": "running"])["id"] as! String
        _ = try server.control(path: "/_dev/burst", query: ["task_id": task, "count": "\(lines)"])
        let outbox = SyncOutbox()
        let engine = try SyncEngine(client: try server.client(), apiKey: server.apiKey, cache: nil, outbox: outbox)
        engine.loadOlderOutput(taskID: task, beforeSeq: before, count: count)
        var answer: (events: [TaskEvent], from: Int?)?
        let end = Date().addingTimeInterval(20)
        while answer == nil && Date() < end {
            for case .olderOutput(let id, let events, let from) in outbox.wait(until: Date().addingTimeInterval(1))
            where id == task { answer = (events, from) }
        }
        return (server, task, answer)
    }

    @Test func olderOutputComesOnDemandFromTheServerWhenTheCacheLacksIt() throws {
        let (server, task, answer) = try olderOutput(lines: 100, before: 51, count: 20)
        #expect(answer?.events.map(\.seq) == Array(31...50))
        #expect(answer?.from == 31)
        #expect(answer?.events == Array(try serverEvents(server, task)[30..<50]))
    }

    /// `g` after 3,000 lines: everything before the first held seq, page by page,
    /// back to seq 1 in one answer that says it reached the start.
    @Test func olderOutputReadsBackToTheStart() throws {
        let (server, task, answer) = try olderOutput(lines: 3000, before: 1002, count: 50_000)
        #expect(answer?.from == 1)
        #expect(answer?.events == Array(try serverEvents(server, task)[0..<1001]))
    }
}
