import Foundation
import MakimaKit

/// Keeping what is on screen current: the refresh key, the polling of the pane on screen by
/// the refresh policy (`RefreshPolicy`), and what a refused key stops.
extension LiveDashboard {
    func refreshCurrent() {
        if unauthorized { return signIn.retryKey() }
        guard let engine else { return explainNoConnection() }
        if let pane = session.topPane as? TaskOutputPane {
            engine.loadDetail(.task(pane.model.taskID))
            return
        }
        let pane = session.topPane.id
        refresh(pane, force: true)
        bindings.markDirty(pane)
    }

    func refresh(_ pane: PaneID, force: Bool) {
        guard engine != nil, !unauthorized else { return }
        fetch(pane.spec.queries(navigation.filter(pane), navigation.scopes[pane] ?? nil), force: force)
    }

    /// Asks the engine for `queries` and notes it in the refresh policy.
    func fetch(_ queries: [ListQuery], force: Bool) {
        guard let engine else { return }
        let now = self.now()
        for q in queries {
            engine.refresh(q, force: force)
            freshness.asked(q, at: now)
        }
    }

    // MARK: Polling and 401

    /// A pane is on screen: its lists older than their period (`RefreshPolicy`) are fetched
    /// now, and the timer is set for when the next one falls due, for as long as it stays there.
    func poll(_ pane: PaneID) {
        session.cancelTimer(id: "poll")
        if pane == .home { loadActivity() }
        guard engine != nil, !unauthorized else { return }
        let queries = pane.spec.queries(navigation.filter(pane), navigation.scopes[pane] ?? nil)
        let now = self.now()
        fetch(freshness.due(queries, now: now), force: false)
        guard let next = freshness.nextDue(queries, now: now) else { return }
        session.schedule(after: max(1, next.timeIntervalSince(now)), id: "poll") { [weak self] in
            guard let self, self.session.topPane.id == pane, !(self.session.topPane is TaskOutputPane) else { return }
            self.poll(pane)
        }
    }

    static let refusedKey = "the server refused the API key — r retries it · K enters a new key"

    /// A 401 anywhere (a list, a detail, the WebSocket upgrade): the pill says AUTH at once,
    /// polling stops, the live connection ends (no reconnects with a refused key), what is on
    /// screen stays, marked stale. `r` asks the server again (`retryKey`), `K` takes a new key.
    func keyRefused() {
        guard !unauthorized else { return }
        unauthorized = true
        session.cancelTimer(id: "poll")
        engine?.halt()
        session.setConnectionPill(.auth)
        hub.markAllStale()
        session.setBanner(NoticeLine(Self.refusedKey, level: .danger))
        setNetworkRow("KEY REFUSED", .danger)
    }

    func setNetworkRow(_ value: String, _ level: StatusRow.Level) {
        session.updateHome { $0.setStatusRow(StatusRow("Network", value, level)) }
    }
}
