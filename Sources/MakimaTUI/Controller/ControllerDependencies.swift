import Foundation
import MakimaKit

// What the controllers are given instead of the whole `LiveDashboard`: each init names the
// parts it uses (these, the stores, and closures onto the other concerns), so the graph of
// who calls whom is read from `Controllers.init` (LiveDashboard+Controllers.swift). No controller holds the
// `LiveDashboard`; it conforms to the protocols below that speak of the whole dashboard.

/// The pane stack as a controller changes it (`DashboardSession`).
@MainActor protocol PaneStackEditing: AnyObject {
    var topPane: any Pane { get }
    func updatePanes(_ body: (inout PaneStack) -> Void)
    func push(_ pane: any Pane)
}

/// The event loop's named timers (`DashboardSession`).
@MainActor protocol TimerScheduling: AnyObject {
    func schedule(after seconds: Double, id: String, _ action: @escaping @MainActor () -> Void)
    func cancelTimer(id: String)
}

/// What reaches the terminal besides frames: the bell and app-made control sequences.
@MainActor protocol TerminalSignals: AnyObject {
    func bell()
    func writeTerminalControl(_ bytes: [UInt8])
    /// True while the terminal says it has focus; nil when it never said.
    var terminalFocused: Bool? { get }
}

/// The engine and cache in use, and whether the server refused the key: all three change
/// with a sign-in, so a controller reads them when it needs them (`LiveDashboard`).
@MainActor protocol EngineSource: AnyObject {
    var engine: (any DashboardEngine)? { get }
    var cache: CacheStore? { get }
    var unauthorized: Bool { get }
}

/// A pane's lists asked for (`RefreshController`): a filter or scope changed, a pane came on
/// screen, a picker needs its choices.
@MainActor protocol ListRefreshing: AnyObject {
    func refresh(_ pane: PaneID, force: Bool)
    func fetch(_ queries: [ListQuery], force: Bool)
    func poll(_ pane: PaneID)
}

/// The server and key in use, or why there is none (`LiveSetup.access`): a sign-in, a
/// profile switch or a sign out changes it, so it is read when needed (`LiveDashboard`).
@MainActor protocol ServerInUse: AnyObject {
    var access: LiveSetup.Access { get }
}

/// Swapping the server the dashboard runs against, whole (`LiveDashboard+SessionSwitching`):
/// its engine and cache, what the stores and the masthead hold of it, and which mesh the
/// background reads leave out. Sign-in decides when; what is let go is handed back to it, to
/// be stopped off the UI thread (`SignInController.retire`).
@MainActor protocol SessionSwitching: ServerInUse {
    /// Lets go of the engine in use and, unless `keepingServer` (the same server again), of
    /// its cache and of all the stores and the notifications' task titles hold of it.
    /// Returns what was let go.
    func detach(keepingServer: Bool) -> (engine: (any DashboardEngine)?, cache: CacheStore?)
    /// Runs against `signedIn` from now on: a new engine on its cache, the masthead and the
    /// connection saying so, its mesh read by that engine rather than in the background.
    func use(_ signedIn: SignedIn)
    /// Runs against no server from now on (`message` says why, as an unconfigured start does).
    func useNone(saying message: String)
}

/// Sign-in as Settings drives it (`SignInController`): one check at a time (`busy`), a server
/// or key the server accepted, a sign out, the server step, a stored profile.
@MainActor protocol SigningIn: AnyObject {
    var busy: Bool { get set }
    func adopt(_ signedIn: SignedIn, message: String)
    func signedOut()
    func showOnboarding(server: String?)
    func switchToProfile(named name: String)
}

/// What a `Destinations` entry opens and rebuilds its pane with (`LiveDashboard`): an entry
/// spans concerns (the stores, a fetch, the task output view, the notifications' titles),
/// so it is handed them when it runs, and navigation, which runs it, does not hold them.
@MainActor protocol DestinationContext: AnyObject {
    var hub: StoreHub { get }
    var engine: (any DashboardEngine)? { get }
    var navigation: NavigationController { get }
    var refreshing: RefreshController { get }
    var taskOutput: TaskOutputController { get }
    var notificationController: NotificationController { get }
}

/// Runs a `Destinations` entry with its context (`LiveDashboard`): navigation decides which
/// entry runs, and when.
@MainActor protocol DestinationRunning: AnyObject {
    /// The entry's `open`, for `subject`.
    func open(_ destination: Destination, subject: String, at now: Date)
    /// The entry's `rebuild` of `pane`, on top.
    func rebuild(_ destination: Destination, _ pane: any Pane, at now: Date)
}

extension DashboardSession: PaneStackEditing, TimerScheduling, TerminalSignals {}
extension RefreshController: ListRefreshing {}
extension SignInController: SigningIn {}
extension LiveDashboard: EngineSource, DestinationContext {}

extension LiveDashboard: DestinationRunning {
    func open(_ destination: Destination, subject: String, at now: Date) { destination.open?(self, subject, now) }
    func rebuild(_ destination: Destination, _ pane: any Pane, at now: Date) { destination.rebuild?(self, pane, now) }
}
