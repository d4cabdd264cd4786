import Foundation
import MakimaKit

/// Keeping what is on screen current, one concern of the dashboard: the refresh key, the
/// fetches a pane or a detail asks for, and the polling of the pane on screen by the refresh
/// policy (`RefreshPolicy`); nothing is fetched while the key is refused. `LiveDashboard`
/// holds one.
@MainActor
final class RefreshController {
    unowned let live: LiveDashboard
    /// When each list was last asked for or answered: what polling fetches, and when.
    var policy = RefreshPolicy()

    init(live: LiveDashboard) { self.live = live }

    private var session: DashboardSession { live.session }
    private var navigation: NavigationController { live.navigation }

    func refreshCurrent() {
        if live.unauthorized { return live.signIn.retryKey() }
        guard let engine = live.engine else { return live.explainNoConnection() }
        if let pane = session.topPane as? TaskOutputPane {
            engine.loadDetail(.task(pane.model.taskID))
            return
        }
        let pane = session.topPane.id
        // Home's ACTIVITY// card is the cache's, not a list's: it is read again with the lists.
        if pane == .home { live.loadActivity() }
        refresh(pane, force: true)
        live.bindings.markDirty(pane)
    }

    /// `R`: the live connection is tried again now, not after its backoff (after a refused
    /// key: the key is, as `r` does).
    func reconnectNow() {
        if live.unauthorized { return live.signIn.retryKey() }
        guard let engine = live.engine else { return live.explainNoConnection() }
        engine.retryNow()
    }

    func refresh(_ pane: PaneID, force: Bool) {
        guard live.engine != nil, !live.unauthorized else { return }
        fetch(queries(of: pane), force: force)
    }

    /// Asks the engine for `queries` and notes it in the refresh policy.
    func fetch(_ queries: [ListQuery], force: Bool) {
        guard let engine = live.engine else { return }
        let now = live.now()
        for q in queries {
            engine.refresh(q, force: force)
            policy.asked(q, at: now)
        }
    }

    /// Back online after a loss, when events may have been missed: Home's lists and the shown
    /// pane's are fetched now, not after the error backoff, each once however many parts of
    /// the program ask (`DashboardEngine.refreshAfterReconnect`: the engine reads Home's task
    /// lists on every open); every other list is marked stale and read again when a pane
    /// shows it (the policy forgets when it was read). A long list's read counts its pages in
    /// the pane's title as they arrive.
    func reconnected() {
        guard let engine = live.engine, !live.unauthorized else { return }
        let pane = session.topPane is TaskOutputPane ? PaneID.tasks : session.topPane.id
        live.hub.markAllStale()
        policy.forgetAll()
        var asked = queries(of: .home)
        for q in queries(of: pane) where !asked.contains(q) { asked.append(q) }
        let now = live.now()
        for q in asked {
            engine.refreshAfterReconnect(q)
            policy.asked(q, at: now)
        }
        if session.topPane.isTopLevel { poll(pane) }
    }

    private func queries(of pane: PaneID) -> [ListQuery] {
        pane.spec.queries(navigation.filter(pane), navigation.scopes[pane] ?? nil)
    }

    // MARK: Polling

    /// A pane is on screen: its lists older than their period (`RefreshPolicy`) are fetched
    /// now, and the timer is set for when the next one falls due, for as long as it stays there.
    func poll(_ pane: PaneID) {
        session.cancelTimer(id: "poll")
        if pane == .home { live.loadActivity() }
        guard live.engine != nil, !live.unauthorized else { return }
        let shown = queries(of: pane)
        let now = live.now()
        fetch(policy.due(shown, now: now), force: false)
        guard let next = policy.nextDue(shown, now: now) else { return }
        session.schedule(after: max(1, next.timeIntervalSince(now)), id: "poll") { [weak self] in
            guard let self, self.session.topPane.id == pane, !(self.session.topPane is TaskOutputPane) else { return }
            self.poll(pane)
        }
    }
}

extension RefreshController {
    /// The keys this controller answers (`KeyMap.standard` composes them).
    nonisolated static let keyBindings: [KeyBinding] = [
        KeyBinding(
            [.char("r")], .refresh, "refresh this pane now (skips the wait after an error)", context: .global,
            footer: "refresh"),
        KeyBinding([.char("R")], .reconnect, "reconnect the live connection now", context: .global),
    ]
}
