import Foundation
import MakimaKit

/// Keeping what is on screen current, one concern of the dashboard: the refresh key, the
/// fetches a pane or a detail asks for, and the polling of the pane on screen by the refresh
/// policy (`RefreshPolicy`); nothing is fetched while the key is refused. `LiveDashboard`
/// holds one.
@MainActor
final class RefreshController {
    /// When each list was last asked for or answered: what polling fetches, and when.
    var policy = RefreshPolicy()
    private unowned let engines: any EngineSource
    private let hub: StoreHub
    private unowned let screen: any PaneStackEditing & TimerScheduling
    /// The lists a pane shows (its filter and scope are navigation's).
    private let listsOf: (PaneID) -> [ListQuery]
    private let now: () -> Date
    /// Marks a pane for a rebuild (`PaneBindings`): its ages are redrawn at once.
    private let markDirty: (PaneID) -> Void
    /// Reads Home's ACTIVITY// counts from the cache again.
    private let loadActivity: () -> Void
    /// Asks the server whether it takes the refused key again (`SignInController`).
    private let retryKey: () -> Void
    /// Says why there is nothing to refresh (no server, a refused key).
    private let explainNoConnection: () -> Void

    init(
        engines: any EngineSource, hub: StoreHub, screen: any PaneStackEditing & TimerScheduling,
        listsOf: @escaping (PaneID) -> [ListQuery], now: @escaping () -> Date,
        markDirty: @escaping (PaneID) -> Void, loadActivity: @escaping () -> Void,
        retryKey: @escaping () -> Void, explainNoConnection: @escaping () -> Void
    ) {
        self.engines = engines
        self.hub = hub
        self.screen = screen
        self.listsOf = listsOf
        self.now = now
        self.markDirty = markDirty
        self.loadActivity = loadActivity
        self.retryKey = retryKey
        self.explainNoConnection = explainNoConnection
    }

    private var engine: (any DashboardEngine)? { engines.engine }
    private var unauthorized: Bool { engines.unauthorized }

    func refreshCurrent() {
        if unauthorized { return retryKey() }
        guard let engine = engine else { return explainNoConnection() }
        // The task output view fetches its task again; any other pane, its section's lists.
        if screen.topPane.id == .taskOutput, let link = screen.topPane.shownLink {
            return engine.loadDetail(link)
        }
        let pane = screen.topPane.section
        // Home's ACTIVITY// card is the cache's, not a list's: it is read again with the lists.
        if pane == .home { loadActivity() }
        refresh(pane, force: true)
        markDirty(pane)
    }

    /// `R`: the live connection is tried again now, not after its backoff (after a refused
    /// key: the key is, as `r` does).
    func reconnectNow() {
        if unauthorized { return retryKey() }
        guard let engine = engine else { return explainNoConnection() }
        engine.retryNow()
    }

    func refresh(_ pane: PaneID, force: Bool) {
        guard engine != nil, !unauthorized else { return }
        fetch(queries(of: pane), force: force)
    }

    /// Asks the engine for `queries` and notes it in the refresh policy.
    func fetch(_ queries: [ListQuery], force: Bool) {
        guard let engine = engine else { return }
        let now = now()
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
        guard let engine = engine, !unauthorized else { return }
        let pane = screen.topPane.section
        hub.markAllStale()
        policy.forgetAll()
        var asked = queries(of: .home)
        for q in queries(of: pane) where !asked.contains(q) { asked.append(q) }
        let now = now()
        for q in asked {
            engine.refreshAfterReconnect(q)
            policy.asked(q, at: now)
        }
        if screen.topPane.isTopLevel { poll(pane) }
    }

    private func queries(of pane: PaneID) -> [ListQuery] {
        listsOf(pane)
    }

    // MARK: Polling

    /// A pane is on screen: its lists older than their period (`RefreshPolicy`) are fetched
    /// now, and the timer is set for when the next one falls due, for as long as it stays there.
    func poll(_ pane: PaneID) {
        screen.cancelTimer(id: "poll")
        if pane == .home { loadActivity() }
        guard engine != nil, !unauthorized else { return }
        let shown = queries(of: pane)
        let now = now()
        fetch(policy.due(shown, now: now), force: false)
        guard let next = policy.nextDue(shown, now: now) else { return }
        screen.schedule(after: max(1, next.timeIntervalSince(now)), id: "poll") { [weak self] in
            guard let self, self.screen.topPane.id == pane else { return }
            self.poll(pane)
        }
    }
}

extension RefreshController {
    /// The keys this controller answers (`KeyMap.standard` composes them).
    nonisolated static let keyBindings: [KeyBinding] = [
        KeyBinding(
            [.char("r")], .request(.refresh), "refresh this pane now (skips the wait after an error)", context: .global,
            footer: "refresh"),
        KeyBinding([.char("R")], .request(.reconnect), "reconnect the live connection now", context: .global),
    ]
}
