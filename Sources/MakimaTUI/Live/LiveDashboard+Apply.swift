import Foundation
import MakimaKit

extension LiveDashboard {
    /// Applies a batch of engine updates to the stores, then rebuilds only the view models
    /// they touched and only for what is on screen (a pane rebuilds when it is shown).
    func apply(_ updates: [SyncUpdate]) {
        var panes = Set<PaneID>()
        var outputChanged = false
        var notices: [String] = []
        let shownTask = output?.taskID
        var reconnected = false
        for update in updates {
            if case .connection(let status) = update {
                if case .offline = status.phase { lostConnection = true }
                if status.isOnline && lostConnection {
                    reconnected = true
                    lostConnection = false
                }
            }
            hub.apply(update)
            switch update {
            case .list(let q, let payload, _, _):
                panes.formUnion(PaneQueries.panes(for: q))
                if case .tasks(let tasks) = payload { for t in tasks { taskTitles[t.id] = oneLine(t.displayTitle) } }
            case .listFailed(let q, _), .listLoading(let q):
                panes.formUnion(PaneQueries.panes(for: q))
            case .events(let events):
                if events.contains(where: { if case .status = $0.payload { true } else { false } }) {
                    panes.formUnion([.home, .tasks])
                }
                if let shownTask, events.contains(where: { $0.taskID == shownTask }) { outputChanged = true }
                panes.insert(.settings)
            case .olderOutput(let id, _), .outputCaughtUp(let id):
                if id == shownTask {
                    outputChanged = true
                    output?.historyLoading = false
                }
            case .task(let t):
                taskTitles[t.id] = oneLine(t.displayTitle)
                panes.insert(.home)
                if t.id == shownTask { outputChanged = true }
            case .connection(let status):
                session.setConnectionPill(ConnectionPillState(status, now: Date()))
                if !unauthorized { setNetworkRow(status.label, status.isOnline ? .ok : .warn) }
                panes.insert(.settings)
            case .unauthorized:
                keyRefused()
                if output != nil {
                    outputChanged = true
                    output?.historyLoading = false
                }
            case .notice(let text):
                notices.append(text)
            case .contract, .listenSession, .notifications:
                break
            }
        }
        // Back online: what is on screen is fetched now, not after the error backoff.
        if reconnected { refresh(session.topPane is TaskOutputPane ? .tasks : session.topPane.id, force: true) }
        rebuild(panes)
        if outputChanged { rebuildOutput() }
        for n in notices { toast(NoticeLine(oneLine(n), level: .muted)) }
        announce(hub.notifications.takeToasts())
    }

    /// Rebuilds the view models of `panes` that are on screen.
    func rebuild(_ panes: Set<PaneID>) {
        let top = session.topPane
        guard !(top is TaskOutputPane), panes.contains(top.id) else { return }
        let now = Date()
        guard case .configured = setup.access else {
            if case .notConfigured(let message) = setup.access, top.id != .home {
                session.updateList(top.id, ListPaneViewModel(emptyMessage: message))
            }
            return
        }
        switch top.id {
        case .home: session.updateHome { $0.mesh = HomeMeshModel.from(hub, now: now) }
        case .contracts:
            session.updateList(.contracts, ListPaneModels.contracts(hub, status: queries.contractStatus, now: now))
        case .tasks: session.updateList(.tasks, ListPaneModels.tasks(hub, status: queries.taskStatus, now: now))
        case .directives: session.updateList(.directives, ListPaneModels.directives(hub, now: now))
        case .daemons: session.updateList(.daemons, ListPaneModels.daemons(hub, now: now))
        case .listen: session.updateList(.listen, ListPaneModels.listen(hub, now: now))
        case .settings: session.updateList(.settings, settingsFacts().model)
        }
    }

    func settingsFacts() -> SettingsFacts {
        guard case .configured(let client, let key, let source, _) = setup.access else {
            return SettingsFacts(
                server: "not configured", maskedKey: "none", keySource: "run `makima-tui login --server URL`",
                cachePath: "none", version: MakimaVersion.current, connection: "IDLE")
        }
        let link = hub.connection.link
        return SettingsFacts(
            server: client.profile.baseURL.absoluteString, maskedKey: key.masked, keySource: source,
            cachePath: cache?.file.path ?? "none (running without a cache)", version: MakimaVersion.current,
            connection: link.label + (link.lastError.map { " · " + oneLine($0) } ?? ""),
            counters: engine?.counters ?? StreamCounters(),
            connectionsOpened: engine?.connectionStats.connectionsOpened ?? 0)
    }
}
