import Foundation
import MakimaKit

/// Binds the terminal shell to the sync engine and the stores: engine updates are applied to
/// the `StoreHub` on the UI thread, view models are rebuilt for what changed, keys become
/// refreshes, reconnects and drill-downs. Idle costs nothing but timers: Home's 30 s poll
/// (only while Home is on screen) and a toast's 5 s.
@MainActor
public final class LiveDashboard {
    let session: DashboardSession
    let setup: LiveSetup
    let hub = StoreHub()
    private(set) var engine: SyncEngine?
    private(set) var cache: CacheStore?
    var queries = PaneQueries()
    var toasts = ToastQueue()
    var output: OutputView?
    private(set) var unauthorized = false
    /// The connection was lost since it was last online (a reconnect refreshes the screen).
    var lostConnection = false
    /// Every task title seen this run: a toast names a task even after it left every list.
    var taskTitles: [String: String] = [:]
    let notifier: DesktopNotifier
    static let homePollSeconds = 30.0

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

    init(session: DashboardSession, setup: LiveSetup) {
        self.session = session
        self.setup = setup
        notifier = DesktopNotifier(
            route: .detect(environment: setup.environment, outputIsTerminal: true),
            preferences: setup.notificationPreferences, environment: setup.environment)
    }

    func start() {
        session.onRequest = { [weak self] in self?.handle($0) }
        guard case .configured(let client, let key, _, let cacheKey) = setup.access else {
            if case .notConfigured(let message) = setup.access {
                session.updateHome { $0.notice = NoticeLine(message, level: .warn) }
                setNetworkRow("NOT CONFIGURED", .warn)
            }
            return
        }
        var notices: [String] = []
        do {
            let opened = try CacheStore.open(profileKey: cacheKey, environment: setup.environment)
            cache = opened.store
            if let n = opened.notice { notices.append(n) }
        } catch {
            notices.append("offline cache unavailable (\(error)); running without it")
        }
        let sink = OutboxSink()
        let bus = session.bus
        let outbox = SyncOutbox(wake: { bus.post { sink.drain() } })
        do {
            engine = try SyncEngine(client: client, apiKey: key, cache: cache, outbox: outbox)
        } catch {
            session.setBanner(NoticeLine("cannot connect: \(error)", level: .danger))
            return
        }
        sink.target = self
        session.updateHome { $0.mesh = HomeMeshModel() }
        // Cached lists paint the first frame (marked stale) before any answer from the server.
        apply(engine?.cachedSnapshot() ?? [])
        for n in notices { toast(NoticeLine(n, level: .warn)) }
        engine?.start()
        homeShown()
        openDeepLink()
    }

    func stop() {
        notifier.stop()
        engine?.stop()
        cache?.close()
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
            guard let engine, !unauthorized else { return explainNoConnection() }
            engine.retryNow()
        case .openRow(let pane, let rowID): openRow(pane, rowID)
        case .nextFilter(let pane):
            guard queries.next(pane) else { return }
            rebuild([pane])
            refresh(pane, force: false)
        case .loadOlderOutput(let id):
            guard let first = hub.tasks.outputs[id]?.firstSeq else { return }
            engine?.loadOlderOutput(taskID: id, beforeSeq: first)
        }
    }

    private func shown(_ pane: PaneID) {
        if !(session.topPane is TaskOutputPane) { output = nil }
        if pane == .home { homeShown() } else { session.cancelTimer(id: "home-poll") }
        rebuild([pane])
        if pane != .home { refresh(pane, force: false) }
    }

    private func refreshCurrent() {
        guard let engine, !unauthorized else { return explainNoConnection() }
        if let pane = session.topPane as? TaskOutputPane {
            engine.loadDetail(.task(pane.model.taskID))
            return
        }
        let pane = session.topPane.id
        refresh(pane, force: true)
        rebuild([pane])
    }

    func refresh(_ pane: PaneID, force: Bool) {
        guard let engine, !unauthorized else { return }
        for q in queries.queries(for: pane) { engine.refresh(q, force: force) }
    }

    private func explainNoConnection() {
        switch setup.access {
        case .notConfigured(let message): toast(NoticeLine(message, level: .warn))
        case .configured: if unauthorized { toast(NoticeLine(Self.refusedKey, level: .danger)) }
        }
    }

    private func openRow(_ pane: PaneID, _ rowID: String) {
        switch pane {
        case .tasks: openTask(rowID)
        case .directives:
            if let task = hub.directives.list.items.first(where: { $0.id == rowID })?.pendingQuestion?.taskID {
                openTask(task)
            }
        default: break
        }
    }

    private func openDeepLink() {
        switch setup.deepLink {
        case .task(let id): openTask(id)
        case .directive:
            session.updatePanes { $0.jump(to: .directives) }
            shown(.directives)
        case .contract:
            session.updatePanes { $0.jump(to: .contracts) }
            shown(.contracts)
        case nil: break
        }
    }

    // MARK: Home polling and 401

    /// Home is on screen: fetch its lists now and every 30 s while it stays there.
    private func homeShown() {
        refresh(.home, force: false)
        guard engine != nil, !unauthorized else { return }
        session.schedule(after: Self.homePollSeconds, id: "home-poll") { [weak self] in
            guard let self, self.session.topPane is HomePane else { return }
            self.homeShown()
            self.rebuild([.home])  // ages move on even when a backed-off refresh is skipped
        }
    }

    static let refusedKey = "the server refused the API key — run `makima-tui login`"

    func keyRefused() {
        guard !unauthorized else { return }
        unauthorized = true
        session.cancelTimer(id: "home-poll")
        session.setBanner(NoticeLine(Self.refusedKey, level: .danger))
        setNetworkRow("KEY REFUSED", .danger)
    }

    func setNetworkRow(_ value: String, _ level: StatusRow.Level) {
        session.updateHome { model in
            let row = StatusRow("Network", value, level)
            if let i = model.statusRows.firstIndex(where: { $0.label == "Network" }) {
                model.statusRows[i] = row
            } else {
                model.statusRows.append(row)
            }
        }
    }
}
