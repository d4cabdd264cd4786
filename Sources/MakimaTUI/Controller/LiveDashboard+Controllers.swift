import Foundation
import MakimaKit

/// The dashboard's controllers, one per concern, each built once when the dashboard is.
@MainActor
struct Controllers {
    /// The needs-you list: `n`, `N`, `x`.
    let needsYou: NeedsYouController
    /// Fetches and polls: `r`, `R`, what a pane asks for when it comes on screen.
    let refreshing: RefreshController
    /// The pane stack: what opens, what is shown, filters and scopes.
    let navigation: NavigationController
    /// Toasts, the bell, desktop notifications, the notify command.
    let notifications: NotificationController
    /// Signing in, a refused key, switching servers.
    let signIn: SignInController
    /// Settings' action rows.
    let settings: SettingsController
    /// The task output view, its history and `:grep`.
    let taskOutput: TaskOutputController
    /// The other meshes read in the background.
    let meshes: MeshesController

    /// Builds each controller in an order where what one is given as an object already
    /// exists (navigation is given the refresh controller, Settings the sign-in controller and
    /// the notifier). Calls onto a controller built later, or onto the dashboard, are closures
    /// holding the dashboard weakly: they find it when they run, which is after its `init`.
    init(for live: LiveDashboard) {
        let hub = live.hub
        let session = live.session
        let setup = live.setup
        let nowSource: @MainActor () -> Date = { [weak live] in live?.now() ?? Date() }
        let toast: @MainActor (NoticeLine) -> Void = { [weak live] in live?.notificationController.toast($0) }
        needsYou = NeedsYouController(store: hub.needsYou)
        refreshing = RefreshController(
            engines: live, hub: hub, screen: session,
            listsOf: { [weak live] pane in
                guard let live else { return [] }
                return pane.spec.queries(live.navigation.filter(pane), live.navigation.scopes[pane] ?? nil)
            },
            now: nowSource, markDirty: { [weak live] in live?.bindings.markDirty($0) },
            loadActivity: { [weak live] in live?.loadActivity() }, retryKey: { [weak live] in live?.signIn.retryKey() },
            explainNoConnection: { [weak live] in live?.explainNoConnection() })
        navigation = NavigationController(
            session: session, hub: hub, bindings: live.bindings, lists: refreshing, destinations: live,
            perform: { [weak live] in live?.settings.perform($0) },
            closeTaskOutput: { [weak live] in live?.taskOutput.view = nil }, now: nowSource)
        notifications = NotificationController(
            notifier: DesktopNotifier(
                route: .detect(environment: setup.environment, outputIsTerminal: true),
                preferences: setup.notificationPreferences, environment: setup.environment, launcher: live.children),
            hub: hub, chrome: session.chrome, screen: session, engines: live,
            open: { [weak live] in live?.navigation.open($0) },
            showAll: { [weak live] in live?.navigation.go(to: .notifications) }, now: nowSource)
        signIn = SignInController(
            service: setup.signIn, environment: setup.environment, servers: live, screen: session, bus: session.bus,
            chrome: session.chrome, linkOpener: live.linkOpener, show: { [weak live] in live?.navigation.show($0) },
            shown: { [weak live] in live?.navigation.shown($0) }, toast: toast,
            profileNamesChanged: { [weak live] in live?.session.setProfileNames($0) })
        settings = SettingsController(
            setup: { [weak live] in live?.setup ?? setup }, signIn: signIn,
            engines: live, hub: hub, session: session, notifier: notifications.notifier, toast: toast,
            show: { [weak live] in live?.navigation.show($0) }, keyRefused: { [weak live] in live?.keyRefused() })
        taskOutput = TaskOutputController(
            hub: hub, chrome: session.chrome, screen: session, engines: live, bus: session.bus, glyphs: session.glyphs,
            open: { [weak live] in live?.navigation.open($0) }, show: { [weak live] in live?.navigation.show($0) },
            taskTitle: { [weak live] in live?.notificationController.taskTitle($0) }, now: nowSource)
        meshes = MeshesController(
            store: hub.meshes, profiles: setup.profiles, server: live, bus: session.bus, toast: toast,
            marksChanged: { [weak live] in live?.session.applyMeshMarks($0) })
    }
}
