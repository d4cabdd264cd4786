import Foundation
import MakimaKit

/// Binds the terminal shell to the sync engine and the stores: engine updates are applied to
/// the `StoreHub` on the UI thread, the panes that read what changed are marked dirty by
/// observation (`PaneBindings`) and rebuilt before the next frame, keys become refreshes,
/// reconnects and drill-downs (each pane's part is its `PaneRegistry` entry). Idle costs nothing but timers: Home's 30 s poll
/// (only while Home is on screen) and a toast's 5 s.
@MainActor
public final class LiveDashboard {
    let session: DashboardSession
    /// `access` changes when signing in, switching servers or signing out (`LiveDashboard+SignIn`).
    var setup: LiveSetup
    let hub = StoreHub()
    var engine: (any DashboardEngine)?
    var cache: CacheStore?
    let makeEngine: EngineFactory
    /// Each pane's current filter (absent: the first of its cycle).
    var filters: [PaneID: String?] = [:]
    private(set) lazy var bindings = PaneBindings(bus: session.bus) { [weak self] slot in
        guard let self else { return }
        let top = self.session.topPane
        switch slot {
        case .pane(let id): guard top.id == id, !(top is TaskOutputPane) else { return }
        case .detail: guard !top.isTopLevel, !(top is TaskOutputPane) else { return }
        }
        self.session.setNeedsDisplay()
    }
    var toasts = ToastQueue()
    var output: OutputView? {
        didSet { if oldValue?.taskID != output?.taskID { hub.tasks.endReading(except: output?.taskID) } }
    }
    var unauthorized = false
    /// Engines and caches replaced by a sign-in (a refused key, another server): stopped and
    /// closed at quit, when blocking is allowed.
    var retired: [(engine: (any DashboardEngine)?, cache: CacheStore?)] = []
    /// A sign-in check is running (one at a time).
    var signInBusy = false
    /// Settings' last outcome per action row, and the sign out waiting for its second Enter.
    var settingsStatus: [String: String] = [:]
    var signOutArmed = false
    /// The notifications the toasts on screen speak of (`o` opens the one, or the list).
    var announced: [MeshNotification] = []
    /// Notifications waiting for their task's title (by task id).
    var awaitingTitle: [String: [MeshNotification]] = [:]
    /// Each pane's scope (Tasks: a contract id; absent: all).
    var scopes: [PaneID: String?] = [:]
    /// When each detail was opened: a list fetched after this that lacks it means "not found".
    var detailOpened: [DeepLink: Date] = [:]
    /// Wall time for the ages the models show (tests move it with their loop clock).
    var now: @MainActor () -> Date = { Date() }
    /// When each list was last asked for or answered: what polling fetches, and when.
    var freshness = RefreshPolicy()
    /// A row to select in a list pane once its list holds it (a deep link, a Home daemon).
    var pendingSelection: [PaneID: String] = [:]
    /// The connection was lost since it was last online (a reconnect refreshes the screen).
    var lostConnection = false
    /// Task titles seen this run, so a toast names a task even after it left every list;
    /// bounded (`TaskTitleBook.capacity`, the older half forgotten past it) like `watch`'s.
    var taskTitles = TaskTitleBook()
    let notifier: DesktopNotifier

    /// Runs the dashboard until the user quits, then stops the engine (its cache writes are
    /// flushed) once the terminal is restored.
    public static func run(_ setup: LiveSetup, options: DashboardOptions) -> Int32 {
        var options = options
        if case .configured(let client, _, _, _) = setup.access { options.serverLabel = client.profile.displayHost }
        let holder = Holder()
        options.onStart = { session in
            let live = LiveDashboard(session: session, setup: setup)
            holder.live = live
            live.start()
        }
        let code = DashboardApp.run(options: options)
        holder.live?.stop()
        return code
    }

    @MainActor private final class Holder { var live: LiveDashboard? }

    init(session: DashboardSession, setup: LiveSetup, makeEngine: @escaping EngineFactory = LiveSyncEngine.factory) {
        self.session = session
        self.setup = setup
        self.makeEngine = makeEngine
        notifier = DesktopNotifier(
            route: .detect(environment: setup.environment, outputIsTerminal: true),
            preferences: setup.notificationPreferences, environment: setup.environment)
    }

    func start() {
        session.onRequest = { [weak self] in self?.handle($0) }
        session.onBeforeDraw = { [weak self] in self?.rebuildShown() }
        session.onAgesDue = { [weak self] in self?.agesDue() }
        guard case .configured = setup.access else {
            if case .notConfigured(let message) = setup.access {
                let hint = setup.signIn == nil ? "" : " · K signs in here"
                session.updateHome { $0.notice = NoticeLine(message + hint, level: .warn) }
                setNetworkRow("NOT CONFIGURED", .warn)
                if setup.signIn != nil { showOnboarding() }
            }
            return
        }
        connectEngine()
        openDeepLink()
    }

    /// Opens the cache of the configured server and starts its engine (at start, and again
    /// after a sign-in or an accepted key, with the dashboard running).
    func connectEngine() {
        guard case .configured(let client, let key, _, let cacheKey) = setup.access else { return }
        var notices: [String] = []
        // The same server again (a key accepted after a 401) keeps its open cache.
        if cache == nil {
            do {
                let opened = try CacheStore.open(profileKey: cacheKey, environment: setup.environment)
                StartupReport.mark("cache_open")
                cache = opened.store
                if let n = opened.notice { notices.append(n) }
            } catch {
                notices.append("offline cache unavailable (\(error)); running without it")
            }
        }
        let sink = OutboxSink()
        let bus = session.bus
        let outbox = SyncOutbox(wake: { bus.post { sink.drain() } })
        do {
            engine = try makeEngine(client, key, cache, outbox)
        } catch {
            session.setBanner(NoticeLine("cannot connect: \(error)", level: .danger))
            return
        }
        sink.target = self
        freshness.forgetAll()
        session.updateHome { $0.mesh = HomeMeshModel() }
        // Cached lists paint the first frame (marked stale) before any answer from the server:
        // the pane on screen's lists first; the others (a large mesh's every task) once that
        // frame is drawn.
        let shown = session.topPane.id
        let first = shown.spec.queries(filter(shown), scopes[shown] ?? nil)
        apply(engine?.cachedSnapshot(for: first) ?? [])
        let rest = CacheBridge.standardQueries.filter { !first.contains($0) }
        let current = engine
        session.bus.post { [weak self] in
            guard let self, let current, self.engine === current else { return }
            self.apply(current.cachedSnapshot(for: rest))
        }
        StartupReport.mark("cached_lists")
        for n in notices { toast(NoticeLine(n, level: .warn)) }
        // The cached screen goes out first: the WebSocket and the first fetches start once it
        // is on the terminal (at once when a frame already is, e.g. after a sign-in), so on a
        // busy machine their threads do not compete with the first frame.
        let started = engine
        session.afterFirstFrame { [weak self] in
            guard let self, let started, self.engine === started else { return }
            started.start()
            self.poll(self.session.topPane.id)
        }
    }

    func stop() {
        notifier.stop()
        engine?.stop()
        for r in retired { r.engine?.stop() }
        cache?.close()
        for r in retired { r.cache?.close() }
    }

    func drainOutbox() {
        guard let updates = engine?.outbox.drain(), !updates.isEmpty else { return }
        apply(updates)
    }

    // MARK: Keys

    func handle(_ request: DashboardRequest) {
        switch request {
        case .paneShown(let pane): shown(pane)
        case .refresh: refreshCurrent()
        case .reconnect:
            if unauthorized { return retryKey() }
            guard let engine else { return explainNoConnection() }
            engine.retryNow()
        case .openRow(let pane, let rowID): openRow(pane, rowID)
        case .open(let link): open(link)
        case .showNotifications: showNotifications()
        case .grep(let pattern): showGrep(pattern)
        case .openGrepHit(let task, let pattern, let line): openGrepHit(taskID: task, pattern: pattern, line: line)
        case .openLatestNotification: openLatestNotification()
        case .nextFilter(let pane):
            guard let next = PaneRegistry.nextFilter(filter(pane), of: pane) else { return }
            filters[pane] = .some(next)
            bindings.markDirty(pane)
            refresh(pane, force: false)
        case .pickScope(let pane): pickScope(pane)
        case .setScope(let pane, let value): setScope(pane, value)
        case .loadOlderOutput(let id, let toStart): loadOlderOutput(id, toStart: toStart)
        case .toast(let text): toast(NoticeLine(text, level: .ok))
        case .openURL(let url): openLink(url)
        case .signIn(let request): handleSignIn(request)
        }
    }

    /// The pane's current filter value.
    func filter(_ pane: PaneID) -> String? { filters[pane] ?? pane.spec.filterCycle.first ?? nil }

    func shown(_ pane: PaneID) {
        if !(session.topPane is TaskOutputPane) { output = nil }
        session.cancelTimer(id: "poll")
        bindings.markDirty(pane)
        poll(pane)
    }

    func explainNoConnection() {
        switch setup.access {
        case .notConfigured(let message): toast(NoticeLine(message, level: .warn))
        case .configured: if unauthorized { toast(NoticeLine(Self.refusedKey, level: .danger)) }
        }
    }

    private func openRow(_ pane: PaneID, _ rowID: String) {
        if let action = pane.spec.rowAction(rowID) { return perform(action) }
        if let link = pane.spec.openRow(rowID) { return open(link) }
        // Nothing to drill into (a daemon from Home's card): show the row in its pane.
        guard session.topPane.id != pane else { return }
        session.updatePanes { $0.jump(to: pane) }
        shown(pane)
        select(rowID, in: pane)
    }

    /// A deep link opens exactly its target: a task's output on Home; a directive, contract
    /// or listen session in its pane's list with its row selected and its detail on top.
    private func openDeepLink() {
        guard let link = setup.deepLink else { return }
        let (route, id) = Routes.route(link)
        if route.landsOnList {
            select(id, in: route.pane)
            session.updatePanes { $0.jump(to: route.pane) }
            shown(route.pane)
        }
        open(link)
    }

}
