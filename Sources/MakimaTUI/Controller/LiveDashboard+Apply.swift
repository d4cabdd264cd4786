import Foundation
import MakimaKit

extension LiveDashboard {
    /// Applies a batch of engine updates to the stores. Which panes need a rebuild is not
    /// decided here: the stores are observed (`PaneBindings`), so a pane is marked dirty by
    /// the very properties its model read (the task output view too). What remains is what
    /// lives outside the stores: the connection pill, the 401 banner, notices and toasts.
    func apply(_ updates: [SyncUpdate]) {
        var notices: [String] = []
        // Details the open panes read survive whatever this batch stores (`BoundedMap`).
        hub.keepDetails(of: session.detailLinks)
        for update in updates {
            var reconnected = false
            if case .connection(let status) = update {
                if case .offline = status.phase { lostConnection = true }
                if status.isOnline && lostConnection {
                    reconnected = true
                    lostConnection = false
                }
            }
            let noticeBefore = hub.connection.lastNotice
            hub.apply(update)
            // In order: the lists the engine read as the socket opened may answer later in
            // this batch, and those answers are current; marked stale after it, they would wait
            // for their next poll, the engine having already made the read this asks for.
            if reconnected { refreshing.reconnected() }
            // The notice is the store's: the engine's, or the hub's own (a result it ignored).
            if let notice = hub.connection.lastNotice, notice != noticeBefore || update.isNotice {
                notices.append(notice)
            }
            notificationController.taskTitles.learn(from: update)
            if case .list(let q, _, let at, fromCache: false) = update { refreshing.policy.answered(q, at: at) }
            switch update {
            case .olderOutput(let id, _, _), .outputCaughtUp(let id): taskOutput.historyArrived(for: id)
            case .detail(let link, _) where link.kind == .task: notificationController.titleArrived(for: link.id)
            case .connection(let status):
                // After a refused key the pill stays AUTH whatever the halted engine says last.
                session.setConnectionPill(unauthorized ? .auth : ConnectionPillState(status, now: Date()))
            case .unauthorized:
                keyRefused()
                taskOutput.historyArrived(for: nil)
            case .detailNotFound(let link):
                navigation.detailMissing(link)
                if link.kind == .task { notificationController.titleArrived(for: link.id) }
            case .events, .list, .listFailed, .listLoading, .listProgress, .detail, .notifications,
                .notice, .taskRowsChanged, .tasksNamed, .serverClock:
                break
            }
        }
        // The engine's figures live in the store too: Settings follows them by observation.
        if let engine {
            let counters = engine.counters
            if hub.connection.counters != counters { hub.connection.counters = counters }
            let opened = engine.connectionsOpened
            if hub.connection.connectionsOpened != opened { hub.connection.connectionsOpened = opened }
        }
        // Tasks this batch named that the stores know by id alone are fetched (`TaskNamer`).
        if let engine, case let unknown = hub.unnamedTasks(in: updates), !unknown.isEmpty { engine.nameTasks(unknown) }
        for n in notices { notificationController.toast(NoticeLine(oneLine(n), level: .muted)) }
        notificationController.announce(hub.notifications.takeToasts())
        needsYouChanged()
    }

    /// Rebuilds the pane on screen if the stores it read changed since its last build (called
    /// just before a frame): a detail on top (the task output view included) through its
    /// route, a top-level pane through its registry entry. The build runs inside observation
    /// tracking, which re-arms it.
    func rebuildShown() {
        if navigation.rebuildDetail() { return }
        let top = session.topPane
        if top is HomePane, bindings.isDirty(.homeChrome) {
            let chrome = session.chrome
            let parts = bindings.build(.homeChrome) { HomeChrome(chrome) }
            session.updateHome { $0.adopt(parts) }
        }
        guard bindings.isDirty(top.section) else { return }
        let id = top.section
        guard case .configured = setup.access else {
            // Without a server the panes say so, and Home is the welcome screen with its
            // Network row. Bound all the same: signing in changes the connection's access,
            // which brings the pane back to its registry build.
            let hub = self.hub
            let network = bindings.build(id) { StatusRow.network(hub.connection) }
            if id == .home {
                session.updateHome {
                    $0.mesh = nil
                    $0.setStatusRow(network)
                }
            } else if case .notConfigured(let message) = setup.access {
                session.updateList(id, ListPaneViewModel(emptyMessage: message))
            }
            return
        }
        // The filter and scope are read inside the build: changing them rebuilds the pane.
        let content = bindings.build(id) {
            var source = PaneSource(hub: hub, filter: navigation.filter(id), now: now()) { [unowned self] in
                self.settings.settingsFacts()
            }
            source.scope = navigation.scopes[id] ?? nil
            return id.spec.build(source)
        }
        switch content {
        case .home(let mesh, let network, let serverClock):
            session.updateHome {
                $0.mesh = mesh
                $0.setStatusRow(network)
                $0.setStatusRow(StatusRow.serverClockLabel, serverClock)
            }
        case .list(let model):
            session.updateList(id, model)
            navigation.selectPending(in: id)
        }
    }

    /// An age on screen would read differently now: what is shown is built again.
    func agesDue() {
        let top = session.topPane
        if top.id == .taskOutput { return }  // its header measures ages as it draws
        bindings.markDirty(top.isTopLevel ? .pane(top.id) : .detail)
    }
}

extension SyncUpdate {
    fileprivate var isNotice: Bool {
        if case .notice = self { return true }
        return false
    }
}
