import Foundation
import MakimaKit

/// Binds the terminal shell to the sync engine and the stores: engine updates are applied to
/// the `StoreHub` on the UI thread, the panes that read what changed are marked dirty by
/// observation (`PaneBindings`) and rebuilt before the next frame, keys become refreshes,
/// reconnects and drill-downs (each pane's part is its `PaneRegistry` entry). Idle costs
/// nothing but timers: Home's 30 s poll (only while Home is on screen) and a toast's 5 s.
/// It composes one controller per concern (navigation, notifications, sign-in, Settings, the
/// task output view, refreshing), each holding its own state, and forwards requests to them.
@MainActor
public final class LiveDashboard {
    let session: DashboardSession
    /// `access` changes when signing in, switching servers or signing out (`SignInController`).
    var setup: LiveSetup
    let hub = StoreHub()
    var engine: (any DashboardEngine)?
    var cache: CacheStore?
    let makeEngine: EngineFactory
    /// The one way this program starts a child (`ChildLauncher`): desktop notifications and
    /// every link opened (output links, the web settings page) go through it.
    let children: ChildLauncher
    var linkOpener: LinkOpener { LinkOpener(launcher: children) }
    /// The loop's change tracker, held here too: `stop` runs once the loop (which the session
    /// refers to unowned) is gone, and must still reach it.
    let bindings: PaneBindings
    /// The server refused the key (`keyRefused`); a sign-in or an accepted key clears it.
    var unauthorized: Bool { hub.connection.access == .keyRefused }
    /// Wall time for the ages the models show (tests move it with their loop clock).
    var now: @MainActor () -> Date = { Date() }
    /// The connection was lost since it was last online (a reconnect refreshes the screen).
    var lostConnection = false
    /// Needs-you items already handed to `notify_command` (`runNotifyCommand`), and since when
    /// an item counts as new.
    var notifiedItems: Set<String> = []
    /// The needs-you list's `version` the masthead and the notify command last saw.
    var needsYouVersionSeen: UInt64 = 0
    var notifySince: Date
    // The concerns, each with its own state and requests (`Controller/*Controller.swift`),
    // built once, in `init`, in the order `Controllers.init` gives: what one needs of
    // another is passed in, as the object when it is built before, else as a closure that
    // finds it when called. None is made on first use, and no closure holds the dashboard
    // strongly or unowned.
    private var controllers: Controllers!
    var needsYouController: NeedsYouController { controllers.needsYou }
    var refreshing: RefreshController { controllers.refreshing }
    var navigation: NavigationController { controllers.navigation }
    var notificationController: NotificationController { controllers.notifications }
    var signIn: SignInController { controllers.signIn }
    var settings: SettingsController { controllers.settings }
    var taskOutput: TaskOutputController { controllers.taskOutput }
    var meshes: MeshesController { controllers.meshes }

    /// Runs the dashboard until the user quits, then stops the engine (its cache writes are
    /// flushed) once the terminal is restored.
    public static func run(_ setup: LiveSetup, options: DashboardOptions) -> Int32 {
        var options = options
        if case .configured(let client, _, _, _) = setup.access { options.serverLabel = client.profile.mastheadLabel }
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
        bindings = session.bindings
        children = ChildLauncher(environment: setup.environment)
        notifySince = Date().addingTimeInterval(-60)
        controllers = Controllers(for: self)
    }

    func start() {
        // Since when a needs-you item counts as new (the tests' clock is set by now).
        notifySince = now().addingTimeInterval(-60)
        session.onRequest = { [weak self] in self?.handle($0) }
        session.onDrain(
            { [weak self] in self?.drainOutbox() ?? false },
            pending: { [weak self] in self?.engine?.outbox.hasPending ?? false })
        session.onBeforeDraw = { [weak self] in self?.rebuildShown() }
        session.onAgesDue = { [weak self] in self?.agesDue() }
        if let service = setup.signIn { session.setProfileNames(service.profileNames) }
        askTmuxPassthrough()
        meshes.start()
        guard case .configured = setup.access else {
            if case .notConfigured(let message) = setup.access {
                let hint = setup.signIn == nil ? "" : " · K signs in here"
                session.chrome.homeNotice = NoticeLine(message + hint, level: .warn)
                hub.connection.access = .notConfigured
                if setup.signIn != nil { signIn.showOnboarding() }
            }
            return
        }
        showProfileAccent()
        connectEngine()
        if let link = setup.deepLink { navigation.openDeepLink(link) }
        if case .failure(let problem) = setup.notifyCommand {
            notificationController.toast(NoticeLine(problem.description, level: .warn))
        }
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
        // Task lists are windows over the cache's task table, read through a connection of
        // the UI thread's own; without a cache the store keeps a table in memory.
        hub.tasks.useTable(cache.map { TaskTable.reading($0.file) } ?? TaskTable.inMemory())
        hub.needsYou.restore(acknowledged: (try? cache?.acknowledged()) ?? [:])
        // The turn drains the outbox itself: a post only wakes the UI thread.
        let bus = session.bus
        let outbox = SyncOutbox(wake: { bus.wakeUp() })
        do {
            engine = try makeEngine(client, key, cache, outbox)
        } catch {
            session.setBanner(NoticeLine("cannot connect: \(error)", level: .danger))
            return
        }
        refreshing.policy.forgetAll()
        // Cached lists paint the first frame (marked stale) before any answer from the server:
        // the pane on screen's lists first; the others (a large mesh's every task) once that
        // frame is drawn.
        let shown = session.topPane.section
        let first = shown.spec.queries(navigation.filter(shown), navigation.scopes[shown] ?? nil)
        apply(engine?.cachedSnapshot(for: first) ?? [])
        let rest = PaneRegistry.startQueries.filter { !first.contains($0) }
        let current = engine
        session.afterFirstFrame { [weak self] in
            guard let self, let current, self.engine === current else { return }
            self.apply(current.cachedSnapshot(for: rest))
        }
        StartupReport.mark("cached_lists")
        for n in notices { notificationController.toast(NoticeLine(n, level: .warn)) }
        // The cached screen goes out first: the WebSocket and the first fetches start once it
        // is on the terminal (at once when a frame already is, e.g. after a sign-in), so on a
        // busy machine their threads do not compete with the first frame.
        let started = engine
        session.afterFirstFrame { [weak self] in
            guard let self, let started, self.engine === started else { return }
            started.start()
            self.refreshing.poll(self.session.topPane.section)
        }
    }

    func stop() {
        bindings.stop()
        meshes.stop()
        notificationController.notifier.stop()
        children.stop()
        engine?.stop()
        for r in signIn.retired { r.engine?.stop() }
        // The UI's read connection on the task table closes first, so the cache's own close
        // is the file's last: its checkpoint lands before the seal is written (`CacheSeal`),
        // and the next start skips the full check.
        hub.tasks.useTable(TaskTable.inMemory())
        cache?.close()
        for r in signIn.retired { r.cache?.close() }
    }

    /// The turn's drain of the engine's outbox into the stores; true when there was anything.
    func drainOutbox() -> Bool {
        guard let updates = engine?.outbox.drain(), !updates.isEmpty else { return false }
        apply(updates)
        return true
    }

    // MARK: Keys

    func handle(_ request: DashboardRequest) {
        switch request {
        case .paneShown(let pane): navigation.shown(pane)
        case .refresh: refreshing.refreshCurrent()
        case .reconnect: refreshing.reconnectNow()
        case .openRow(let pane, let rowID): navigation.openRow(pane, rowID)
        case .open(let link): navigation.open(link)
        case .showNotifications: navigation.go(to: .notifications)
        case .grep(let pattern): navigation.go(to: .grep, subject: pattern)
        case .switchProfile(let name): signIn.switchToProfile(named: name)
        case .openGrepHit(let task, let pattern, let line):
            taskOutput.openGrepHit(taskID: task, pattern: pattern, line: line)
        case .openLatestNotification: notificationController.openLatestNotification()
        case .needsYou(let request): perform(needsYouController.handle(request))
        case .nextFilter(let pane): navigation.nextFilter(pane)
        case .pickScope(let pane): navigation.go(to: .picker, subject: pane.rawValue)
        case .setScope(let pane, let value): navigation.setScope(pane, value)
        case .loadOlderOutput(let id, let toStart): taskOutput.loadOlderOutput(id, toStart: toStart)
        case .toast(let text): notificationController.toast(NoticeLine(text, level: .ok))
        case .openURL(let url): openLink(url)
        case .signIn(let request): signIn.handle(request)
        }
    }

    func explainNoConnection() {
        switch setup.access {
        case .notConfigured(let message): notificationController.toast(NoticeLine(message, level: .warn))
        case .configured: if unauthorized { notificationController.toast(NoticeLine(Self.refusedKey, level: .danger)) }
        }
    }
}
