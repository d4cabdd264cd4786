import Foundation
import MakimaKit
import Observation

/// Enter on a Settings row (`SettingsAction`): every row does what it says, and its outcome
/// is shown on the row. Network work goes through `setup.signIn`, off the UI thread. Also the
/// figures the Settings pane shows (`settingsFacts`). `LiveDashboard` holds one.
@MainActor @Observable
final class SettingsController {
    /// Settings' last outcome per action row. Observed: the Settings pane, which reads it in
    /// `settingsFacts`, is rebuilt when it changes.
    var status: [String: String] = [:]
    /// The sign out waiting for its second Enter.
    @ObservationIgnored var signOutArmed = false

    /// The setup of the moment (a sign-in or sign out changes its access).
    @ObservationIgnored private let currentSetup: () -> LiveSetup
    /// Checks, key changes and sign out go through sign-in (one check at a time: `busy`).
    @ObservationIgnored private unowned let signIn: any SigningIn
    @ObservationIgnored private unowned let engines: any EngineSource
    @ObservationIgnored private let hub: StoreHub
    /// The theme and mouse Settings changes, the bus and timers its actions use.
    @ObservationIgnored private unowned let session: DashboardSession
    @ObservationIgnored private let notifier: DesktopNotifier
    @ObservationIgnored private let toast: (NoticeLine) -> Void
    /// Puts a pane on top (`NavigationController.show`: the server step over Settings).
    @ObservationIgnored private let show: (any Pane) -> Void
    /// The server refused the key (`LiveDashboard.keyRefused`).
    @ObservationIgnored private let keyRefused: () -> Void

    init(
        setup: @escaping () -> LiveSetup, signIn: any SigningIn, engines: any EngineSource, hub: StoreHub,
        session: DashboardSession, notifier: DesktopNotifier, toast: @escaping (NoticeLine) -> Void,
        show: @escaping (any Pane) -> Void, keyRefused: @escaping () -> Void
    ) {
        currentSetup = setup
        self.signIn = signIn
        self.engines = engines
        self.hub = hub
        self.session = session
        self.notifier = notifier
        self.toast = toast
        self.show = show
        self.keyRefused = keyRefused
    }

    private var setup: LiveSetup { currentSetup() }

    static let builtInThemes = ["makima", "high-contrast", "light"]

    /// What an action changes, Settings shows from where it lives, observed (`status`, the
    /// session's theme and mouse, the notifier's preferences, the connection's access): no
    /// action marks the pane for a rebuild by hand.
    func perform(_ action: SettingsAction) {
        guard let service = setup.signIn else {
            return toast(NoticeLine(SignInController.noSignIn, level: .warn))
        }
        if action != .signOut { signOutArmed = false }
        switch action {
        case .editServer: editServer()
        case .revalidate: revalidate(service)
        case .rotateKey: rotateKey(service)
        case .signOut: signOut(service)
        case .nextTheme: nextTheme(service)
        case .toggleMouse: toggleMouse(service)
        case .toggleNotification(let key): toggleNotification(key, service)
        case .switchProfile(let name): signIn.switchToProfile(named: name)
        }
    }

    private func setStatus(_ action: SettingsAction, _ text: String?) {
        status[action.rowID] = text
    }

    private var signedIn: SignedIn? {
        guard case .configured(let client, let key, let source, let cacheKey) = setup.access else { return nil }
        return SignedIn(client: client, key: key, keySource: source, cacheKey: cacheKey)
    }

    /// The server step over Settings, prefilled with the server in use: the same server
    /// revalidates it, another one switches to it (with its own cache; the old one stays).
    private func editServer() {
        guard let current = signedIn else { return signIn.showOnboarding(server: nil) }
        var model = OnboardingModel(server: current.client.profile.baseURL.absoluteString, reentry: true)
        model.insecureAllowed = current.client.profile.allowInsecureHTTP
        show(OnboardingPane(model: model))
    }

    private func revalidate(_ service: any SignInService) {
        guard let current = signedIn, !signIn.busy else { return }
        signIn.busy = true
        setStatus(.revalidate, "asking \(current.client.profile.displayHost) …")
        let bus = session.bus
        service.verify(current) { problem in
            bus.post { [weak self] in
                guard let self else { return }
                self.signIn.busy = false
                if let problem {
                    self.setStatus(.revalidate, "refused: \(problem.description)")
                    if problem == .wrongKey || problem == .keyRevoked { self.keyRefused() }
                } else {
                    self.setStatus(.revalidate, "the server accepts the key")
                    if self.engines.unauthorized {
                        self.signIn.adopt(current, message: "the server takes the key again")
                    }
                }
            }
        }
    }

    /// The new key is stored by the service only once the server confirmed it; the engine then
    /// restarts with it (the WebSocket sends the key in its upgrade).
    private func rotateKey(_ service: any SignInService) {
        guard signedIn != nil, !signIn.busy else { return }
        signIn.busy = true
        setStatus(.rotateKey, "rotating: asking the server for a new key …")
        let bus = session.bus
        service.rotateKey { result in
            bus.post { [weak self] in
                guard let self else { return }
                self.signIn.busy = false
                switch result {
                case .success(let rotated):
                    self.setStatus(.rotateKey, "rotated: new key \(rotated.key.masked) stored, the old one revoked")
                    self.signIn.adopt(rotated, message: "API key rotated — new key \(rotated.key.masked) stored")
                case .failure(let problem):
                    self.setStatus(.rotateKey, "not rotated: \(problem.description) — the old key is kept")
                    self.toast(
                        NoticeLine("key not rotated: \(problem.description); the old key is kept", level: .danger))
                }
            }
        }
    }

    /// The first Enter asks for a second one (5 s); the second removes the key and profile.
    private func signOut(_ service: any SignInService) {
        guard signOutArmed else {
            signOutArmed = true
            setStatus(.signOut, "press Enter again to sign out (removes the stored key)")
            session.schedule(after: 5, id: "sign-out") { [weak self] in
                self?.signOutArmed = false
                self?.setStatus(.signOut, nil)
            }
            return
        }
        signOutArmed = false
        session.cancelTimer(id: "sign-out")
        do { try service.signOut() } catch {
            setStatus(.signOut, "not signed out: \(error.description)")
            return
        }
        setStatus(.signOut, nil)
        signIn.signedOut()
        toast(NoticeLine("signed out — the stored key was removed", level: .ok))
    }

    /// makima → high-contrast → light → the configured theme file (when there is one) → makima.
    private func nextTheme(_ service: any SignInService) {
        var cycle = Self.builtInThemes
        if let file = setup.themeFile, !cycle.contains(file) { cycle.append(file) }
        let current = cycle.firstIndex(of: session.themeName) ?? cycle.firstIndex(of: setup.themeFile ?? "") ?? -1
        let next = cycle[(current + 1) % cycle.count]
        switch session.applyTheme(next) {
        case .failure(let problem):
            setStatus(.nextTheme, "\(next): \(problem.description)")
        case .success(let name):
            do {
                try service.saveTheme(next)
                setStatus(.nextTheme, "\(name) · saved · Enter: next theme")
            } catch {
                setStatus(.nextTheme, "\(name) · not saved: \(error.description)")
            }
        }
    }

    private func toggleMouse(_ service: any SignInService) {
        let on = !session.mouseReporting
        session.setMouseReporting(on)
        do {
            try service.saveMouse(on)
            setStatus(.toggleMouse, nil)
        } catch {
            setStatus(.toggleMouse, (on ? "on" : "off") + " · not saved: \(error.description)")
        }
    }

    private func toggleNotification(_ key: String, _ service: any SignInService) {
        guard let field = NotificationPreferences.fields.first(where: { $0.key == key }) else { return }
        var preferences = notifier.preferences
        preferences[keyPath: field.path].toggle()
        do {
            try service.saveNotifications(preferences)
            notifier.preferences = preferences
            setStatus(.toggleNotification(key), nil)
        } catch {
            toast(NoticeLine("not saved: \(error.description)", level: .danger))
        }
    }

    /// The cache file and its WAL, in bytes.
    func cacheSize() -> Int? {
        guard let path = engines.cache?.file.path else { return nil }
        let sizes = [path, path + "-wal"].map { p -> Int in
            ((try? FileManager.default.attributesOfItem(atPath: p))?[.size] as? NSNumber)?.intValue ?? 0
        }
        return sizes.reduce(0, +)
    }

    func settingsFacts() -> SettingsFacts {
        var facts = baseSettingsFacts()
        facts.actions = setup.signIn != nil
        facts.theme = session.themeName
        facts.notifications = notifier.preferences
        facts.mouse = session.mouseReporting
        facts.configPath = setup.signIn?.configPath ?? ""
        facts.cacheBytes = cacheSize()
        facts.terminal = setup.environment["TERM"] ?? "?"
        facts.colorMode = session.colorMode
        facts.actionStatus = status
        facts.profiles = hub.meshes.profiles
        facts.shownProfile = hub.meshes.shown
        return facts
    }

    private func baseSettingsFacts() -> SettingsFacts {
        // What follows depends on whether there is a key: read from the store, so signing in,
        // out or a refused key rebuilds Settings.
        _ = hub.connection.access
        guard case .configured(let client, let key, let source, _) = setup.access else {
            return SettingsFacts(
                server: "not configured", maskedKey: "none", keySource: "run `makima-tui login --server URL`",
                cachePath: "none", version: MakimaVersion.current, connection: "IDLE")
        }
        let link = hub.connection.link
        var facts = SettingsFacts(
            server: client.profile.baseURL.absoluteString, maskedKey: key.masked, keySource: source,
            cachePath: engines.cache?.file.path ?? "none (running without a cache)", version: MakimaVersion.current,
            connection: link.label + (link.lastError.map { " · " + oneLine($0) } ?? ""),
            counters: hub.connection.counters, connectionsOpened: hub.connection.connectionsOpened)
        facts.serverClock = hub.connection.serverClock
        return facts
    }
}
