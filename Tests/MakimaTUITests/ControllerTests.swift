import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// An engine that records what the controller asked of it; updates come from the test
/// through the same outbox a real engine posts to.
@MainActor
final class RecordingEngine: DashboardEngine {
    let outbox: SyncOutbox
    var counters = StreamCounters()
    var connectionsOpened = 0
    private(set) var refreshed: [(query: ListQuery, force: Bool)] = []
    private(set) var followed: [String] = []
    private(set) var retries = 0
    private(set) var started = 0
    private(set) var halted = 0
    /// A halted engine that has not finished stopping yet (a real one stops on a thread).
    var stillStopping = false

    /// The cache the controller opened for this engine: task lists and statuses are written
    /// there before the UI learns of them, as the real engine's save and writer threads do.
    let cache: CacheStore?

    init(outbox: SyncOutbox, cache: CacheStore? = nil) {
        self.outbox = outbox
        self.cache = cache
    }

    /// Posts an update the way `SyncEngine` does: a task list is saved to the cache's task table
    /// and statuses committed there, each followed by `.taskRowsChanged`.
    func deliver(_ update: SyncUpdate) {
        guard let cache else { return outbox.post(update) }
        switch update {
        case .list(let q, let payload, let at, fromCache: false) where q.taskFilter != nil:
            outbox.post(update)
            try? CacheBridge(cache: cache).store(q, payload, fetchedAt: at)
            outbox.post(.taskRowsChanged)
        case .events(let events):
            outbox.post(update)
            _ = try? cache.appendEvents(events)
            if events.contains(where: { $0.type == .status }) { outbox.post(.taskRowsChanged) }
        default:
            outbox.post(update)
        }
    }

    func start() { started += 1 }
    func stop() {}
    func halt() { halted += 1 }
    var hasStopped: Bool { halted > 0 && !stillStopping }
    func cachedSnapshot(for queries: [ListQuery]) -> [SyncUpdate] { [] }
    /// Answers `cachedOutput` from the cache as the real engine does (off: nothing is cached).
    var servesCachedOutput = false
    func cachedOutput(taskID: String) -> [TaskEvent] {
        guard servesCachedOutput else { return [] }
        return (try? cache?.latestEvents(taskID: taskID, limit: 2000)) ?? []
    }
    func refresh(_ query: ListQuery, force: Bool) { refreshed.append((query, force)) }
    func retryNow() { retries += 1 }
    func follow(taskID: String) { followed.append(taskID) }
    private(set) var olderAsked: [(taskID: String, beforeSeq: Int, count: Int)] = []
    func loadOlderOutput(taskID: String, beforeSeq: Int, count: Int) { olderAsked.append((taskID, beforeSeq, count)) }
    private(set) var named: [String] = []
    func nameTasks(_ ids: [String]) { named += ids }
    private(set) var details: [DeepLink] = []
    func loadDetail(_ link: DeepLink) { details.append(link) }
    func forgetRefreshes() { refreshed.removeAll() }
}

/// The whole controller on a memory terminal: the real event loop (stepped by the test with its
/// own clock), the real UI bus and wake pipe, the real stores and panes.
@MainActor
final class ControllerHarness {
    final class Clock { var now = 1000.0 }
    let clock = Clock()
    let terminal = MemoryTerminal(width: 120, height: 40)
    let loop: EventLoop
    let session: DashboardSession
    let live: LiveDashboard
    /// Every engine the controller made, in order (a sign-in or an accepted key makes a new one).
    final class Engines { var all: [RecordingEngine] = [] }
    let engines = Engines()
    var engine: RecordingEngine! { engines.all.last }
    let cacheDir: URL

    /// `access` nil: configured for a test server; `signIn`: signing in inside the dashboard;
    /// `configure` changes the setup before the controller starts (environment, preferences).
    init(
        access: LiveSetup.Access? = nil, signIn: (any SignInService)? = nil, deepLink: DeepLink? = nil,
        configure: (inout LiveSetup) -> Void = { _ in }, stepAtStart: Bool = true
    ) throws {
        cacheDir = FileManager.default.temporaryDirectory.appendingPathComponent("controller-\(UUID().uuidString)")
        let wake = try WakePipe()
        let bus = UIBus(wakePipe: wake)
        let app = AppState(
            masthead: MastheadModel(serverLabel: "127.0.0.1", version: "0.1.0", pill: .idle, clock: "12:00"))
        let clock = self.clock
        loop = EventLoop(app: app, terminal: terminal, wake: wake, bus: bus, clock: { clock.now })
        session = DashboardSession(bus: bus, loop: loop)
        let key = APIKey("mk_controller_test_0001")!
        let client = APIClient(
            profile: try ServerProfile(server: "http://127.0.0.1:1", allowInsecureHTTP: true), key: key)
        var setup = LiveSetup(
            access: access ?? .configured(client: client, key: key, keySource: "test", cacheKey: "controller"),
            deepLink: deepLink, environment: ["MAKIMA_CACHE_DIR": cacheDir.path])
        setup.signIn = signIn
        configure(&setup)
        let engines = self.engines
        live = LiveDashboard(session: session, setup: setup) { _, _, cache, outbox in
            let e = RecordingEngine(outbox: outbox, cache: cache)
            engines.all.append(e)
            return e
        }
        // Wall time moves with the loop's clock: ages and the refresh policy follow `advance`.
        let wallStart = Date()
        live.now = { wallStart.addingTimeInterval(clock.now - 1000) }
        live.start()
        if stepAtStart { step() }
    }

    func cleanUp() {
        live.stop()
        try? FileManager.default.removeItem(at: cacheDir)
    }

    /// Posts updates the way the engine does (from its outbox, woken through the bus).
    func post(_ updates: SyncUpdate...) {
        for u in updates { engine.deliver(u) }
        step()
    }

    func type(_ keys: Key...) {
        terminal.type(keys)
        step()
    }

    /// One turn of the loop, a data frame's interval on: what a change did is on screen after it.
    @discardableResult
    func step() -> Bool {
        clock.now += EventLoop.dataFrameInterval
        return loop.step(now: clock.now)
    }

    /// Waits for Home's activity read (off the UI thread) that showing Home started, then
    /// takes one turn, which draws its answer: what a test counts from here on is its own
    /// doing, however busy the machine.
    func stepAfterActivityRead() {
        LiveDashboard.activityQueue.sync {}
        step()
    }

    func advance(_ seconds: Double) {
        clock.now += seconds
        step()
    }

    var screen: String { terminal.backend.lines.joined(separator: "\n") }
    func shows(_ text: String) -> Bool { terminal.backend.find(text) != nil }
}

func statusEvent(_ id: Int64, _ task: String, _ status: TaskStatus, seq: Int = 1) -> TaskEvent {
    TaskEvent(
        eventID: id, taskID: task, seq: seq, type: .status, ts: Date(),
        payload: .status(status: status, previous: nil, reason: nil))
}

@MainActor @Suite("Controller on a memory terminal: updates and keys in, frames out")
struct ControllerTests {
    let at = Date()

    @Test("Home's RUNNING count follows task.status events at once, with no poll")
    func homeFollowsStatusEvents() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(
            .list(
                .tasks(status: .running, contractID: nil),
                .tasks([MeshTask(id: "a", title: "alpha", status: .running)]),
                fetchedAt: at, fromCache: false),
            .list(
                .tasks(status: nil, contractID: nil),
                .tasks([
                    MeshTask(id: "a", title: "alpha", status: .running),
                    MeshTask(id: "b", title: "beta", status: .pending),
                    MeshTask(id: "c", title: "gamma", status: .queued),
                ]), fetchedAt: at, fromCache: false))
        #expect(h.shows("1 RUNNING"), "\(h.screen)")
        h.post(.events([statusEvent(1, "b", .running)]))
        #expect(h.shows("2 RUNNING"), "\(h.screen)")
        h.post(.events([statusEvent(2, "c", .running), statusEvent(3, "a", .completed, seq: 2)]))
        #expect(h.shows("2 RUNNING"), "\(h.screen)")
        #expect(h.live.hub.tasks.running.map(\.id).sorted() == ["b", "c"])
        h.post(.events([statusEvent(4, "b", .failed, seq: 2), statusEvent(5, "c", .completed, seq: 2)]))
        #expect(h.shows("0 RUNNING"), "\(h.screen)")
        // The same rule `status` uses.
        #expect(MeshSummary(h.live.hub).runningTasks == 0)
    }

    @Test("Home fetches the sessions list its LISTEN card names older sessions from, before Listen is visited")
    func homeFetchesItsListenList() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        #expect(h.engine.refreshed.contains { $0.query == .listenSessions(limit: nil) })
        h.post(
            .list(
                .listenSessions(limit: nil),
                .listenSessions([
                    ListenSession(id: "new", title: "Newest"), ListenSession(id: "old", title: "Older one"),
                ]),
                fetchedAt: at, fromCache: false))
        h.post(
            .list(
                .listenSessions(limit: 1), .listenSessions([ListenSession(id: "new", title: "Newest")]), fetchedAt: at,
                fromCache: false))
        #expect(h.shows("Older one"), "\(h.screen)")
    }

    @Test("a store change the pane on screen does not read draws no frame; one it reads draws one")
    func onlyReadersRedraw() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.type(.char("5"))  // daemons
        let before = h.terminal.backend.flushCount
        h.step()
        #expect(h.terminal.backend.flushCount == before)  // idle: no frame
        h.post(.listenSession(ListenSession(id: "s", title: "x")))
        #expect(h.terminal.backend.flushCount == before)  // Daemons does not read listen details
        h.post(
            .list(
                .daemons, .daemons([Daemon(id: "d1", hostname: "host-one", status: .online)]), fetchedAt: at,
                fromCache: false))
        #expect(h.terminal.backend.flushCount == before + 1)
        #expect(h.shows("host-one"), "\(h.screen)")
    }

    @Test("the cached screen is drawn before the WebSocket starts and before any list is fetched")
    func networkWaitsForTheFirstFrame() throws {
        let h = try ControllerHarness(stepAtStart: false)
        defer { h.cleanUp() }
        #expect(h.terminal.backend.flushCount == 0)
        #expect(h.engine.started == 0)
        #expect(h.engine.refreshed.isEmpty)
        h.step()
        #expect(h.terminal.backend.flushCount >= 1)
        #expect(h.engine.started == 1)
        #expect(!h.engine.refreshed.isEmpty)  // Home's lists
    }

    @Test("a stream of changes draws at most 10 frames a second, keys 30, and the last change is drawn")
    func frameRateCap() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.step()
        var before = h.terminal.backend.flushCount
        // 300 changes over one second, the loop turning after each (as a busy bus would).
        for i in 0..<300 {
            h.clock.now += 1.0 / 300
            h.session.setToast(NoticeLine("change \(i)", level: .ok))
            h.loop.step(now: h.clock.now)
        }
        let drawn = h.terminal.backend.flushCount - before
        let dataRate = Int((1 / EventLoop.dataFrameInterval).rounded())
        #expect(dataRate == 10)
        #expect(drawn >= dataRate - 2 && drawn <= dataRate + 1, "\(drawn) frames")
        // Keys held down (moving between panes 300 times a second) are drawn at 30 a second.
        before = h.terminal.backend.flushCount
        for i in 0..<300 {
            h.clock.now += 1.0 / 300
            h.terminal.type([.char(i % 2 == 0 ? "2" : "1")])
            h.loop.step(now: h.clock.now)
        }
        let keyFrames = h.terminal.backend.flushCount - before
        #expect(keyFrames >= 25 && keyFrames <= 31, "\(keyFrames) frames")
        h.step()
        #expect(h.shows("change 299"), "\(h.screen)")
        // Then idle: turns of the loop with nothing changed draw nothing.
        let settled = h.terminal.backend.flushCount
        for _ in 0..<100 {
            h.clock.now += 0.01
            h.loop.step(now: h.clock.now)
        }
        #expect(h.terminal.backend.flushCount == settled)
    }

    @Test("back online after a loss: Home's lists and the pane on screen are fetched at once, forced, once each")
    func reconnectRefresh() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.type(.char("5"))
        h.post(.connection(ConnectionStatus(phase: .online)))
        h.engine.forgetRefreshes()
        h.post(.connection(ConnectionStatus(phase: .offline(nextRetry: nil), lastError: "reset")))
        #expect(h.shows("WS//OFFLINE"), "\(h.screen)")
        #expect(h.engine.refreshed.isEmpty)
        h.post(.connection(ConnectionStatus(phase: .online)))
        #expect(h.shows("WS//ONLINE"), "\(h.screen)")
        let home = PaneID.home.spec.queries(nil, nil)
        let asked = h.engine.refreshed.map(\.query)
        #expect(
            asked == home && home.contains(.daemons), "Daemons (on screen) is one of Home's lists, asked once: \(asked)"
        )
        let allForced = h.engine.refreshed.allSatisfy { $0.force }
        #expect(allForced)
        #expect(!asked.contains(.tasks(status: nil, contractID: nil)), "the whole task list waits until it is shown")
    }

    @Test("a 401 shows the banner on every pane and halts the engine; r and R ask again, never fetch with it")
    func unauthorizedBanner() throws {
        let h = try ControllerHarness(signIn: ScriptedSignIn())
        defer { h.cleanUp() }
        let first = try #require(h.engine)
        h.post(.unauthorized(message: "401"))
        #expect(h.shows("the server refused the API key"), "\(h.screen)")
        #expect(first.halted == 1)
        h.type(.char("2"))
        #expect(h.shows("the server refused the API key"), "\(h.screen)")
        first.forgetRefreshes()
        h.type(.char("r"))
        h.type(.char("R"))
        #expect(first.refreshed.isEmpty)
        #expect(first.retries == 0)
    }

    @Test("a notification shows a toast with the task's title and a bell, gone after its time")
    func toasts() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(
            .list(
                .tasks(status: nil, contractID: nil),
                .tasks([MeshTask(id: "t-9", title: "deploy api", status: .failed)]),
                fetchedAt: at, fromCache: false))
        let bells = h.terminal.bells
        h.post(
            .notifications([
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 1), kind: .taskFailed, title: "Task failed", body: "t-9",
                    link: .task("t-9"), at: at)
            ]))
        #expect(h.shows("deploy api"), "\(h.screen)")
        #expect(h.terminal.bells == bells + 1)
        h.advance(60)
        #expect(!h.shows("Task failed"), "\(h.screen)")
    }

    @Test("task titles seen over a long run stay bounded; the newest still name a toast")
    func taskTitlesAreBounded() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        // Three polls of a busy mesh, each a page of tasks never seen before.
        let perPoll = TaskTitleBook.capacity
        for poll in 0..<3 {
            let tasks = (0..<perPoll).map { i in
                MeshTask(id: "t-\(poll)-\(i)", title: "job \(poll) \(i)", status: .failed)
            }
            h.post(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: at, fromCache: false))
            #expect(h.live.notificationController.taskTitles.count <= TaskTitleBook.capacity, "after poll \(poll)")
        }
        #expect(h.live.notificationController.taskTitles.count > 0)
        #expect(h.live.notificationController.taskTitle("t-0-0") == nil, "the oldest titles are forgotten")
        let newest = "t-2-\(perPoll - 1)"
        #expect(h.live.notificationController.taskTitle(newest) == "job 2 \(perPoll - 1)")
        h.post(
            .notifications([
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 1), kind: .taskFailed, title: "Task failed", body: newest,
                    link: .task(newest), at: at)
            ]))
        #expect(h.shows("job 2 \(perPoll - 1)"), "\(h.screen)")
    }

    @Test("the output view follows new lines; after k it stays put; G follows again")
    func followMode() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(
            .list(
                .tasks(status: nil, contractID: nil), .tasks([MeshTask(id: "t1", title: "long job", status: .running)]),
                fetchedAt: at, fromCache: false))
        h.type(.char("3"))
        h.type(.enter)
        #expect(h.engine.followed == ["t1"])
        func lines(_ range: Range<Int>) -> SyncUpdate {
            .events(
                range.map {
                    TaskEvent(
                        eventID: Int64($0), taskID: "t1", seq: $0, type: .output,
                        payload: .output(text: "line-\($0)\n", stream: "stdout"))
                })
        }
        h.post(lines(1..<101))
        #expect(h.shows("line-100"), "\(h.screen)")
        h.type(.char("k"))
        h.post(lines(101..<121))
        #expect(!h.shows("line-120"), "\(h.screen)")
        h.type(.char("G"))
        #expect(h.shows("line-120"), "\(h.screen)")
        h.post(lines(121..<131))
        #expect(h.shows("line-130"), "\(h.screen)")
    }
}
