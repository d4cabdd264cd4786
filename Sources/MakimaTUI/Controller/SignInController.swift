import Foundation
import MakimaKit

/// Signing in with the dashboard running: onboarding on an unconfigured start, a key entered
/// again after a 401 (`K`), `r` asking the server whether it takes the key again, and the
/// switch to a server and key the server accepted (`adopt`), which starts a new engine
/// without a restart. Every check runs through `setup.signIn` off the UI thread; its answer
/// comes back as a job on the UI bus. `LiveDashboard` holds one and forwards to it.
@MainActor
final class SignInController {
    unowned let live: LiveDashboard
    /// A sign-in check is running (one at a time).
    var busy = false
    /// Engines and caches replaced by a sign-in (a refused key, another server): stopped and
    /// closed at quit, when blocking is allowed.
    var retired: [(engine: (any DashboardEngine)?, cache: CacheStore?)] = []

    init(live: LiveDashboard) { self.live = live }

    private var session: DashboardSession { live.session }
    private var setup: LiveSetup { live.setup }

    func handle(_ request: SignInRequest) {
        switch request {
        case .submit: submitSignIn()
        case .keyHelp: showKeyHelp()
        case .close:
            // The dashboard under it stays usable unconfigured; K opens sign-in again.
            guard onboarding != nil, !busy else { return }
            closeOnboarding()
        case .enterKey: enterNewKey()
        }
    }

    /// The sign-in pane's model, when it is on top.
    var onboarding: OnboardingModel? { (session.topPane as? OnboardingPane)?.model }

    func updateOnboarding(_ body: (inout OnboardingModel) -> Void) {
        session.updatePanes { stack in
            stack.withTop { pane in
                guard var p = pane as? OnboardingPane else { return }
                body(&p.model)
                pane = p
            }
        }
    }

    /// Step 1 of onboarding over Home (an unconfigured start, after signing out), its server
    /// field holding `server` (the one just signed out of), else the service's suggestion.
    func showOnboarding(server: String? = nil) {
        guard let service = setup.signIn else { return }
        let model = OnboardingModel(server: server ?? service.suggestedServer)
        session.updatePanes { stack in
            while stack.top.id == .onboarding || !stack.top.isTopLevel { if !stack.pop() { break } }
            stack.jump(to: .home)
        }
        live.navigation.show(OnboardingPane(model: model))
    }

    /// `K`: step 2 in place for the signed-in server (the usual way out of a refused key).
    func enterNewKey() {
        guard setup.signIn != nil else {
            return live.notificationController.toast(NoticeLine(Self.noSignIn, level: .warn))
        }
        guard case .configured(let client, _, _, _) = setup.access else { return showOnboarding() }
        if session.topPane.id == .onboarding { return }
        var model = OnboardingModel(
            server: client.profile.baseURL.absoluteString, reentry: true,
            checkedServer: client.profile.baseURL.absoluteString)
        model.insecureAllowed = client.profile.allowInsecureHTTP
        live.navigation.show(OnboardingPane(model: model))
    }

    static let noSignIn = "signing in is not available here — run `makima-tui login`"

    private func closeOnboarding() {
        session.updatePanes { stack in
            while stack.top.id == .onboarding { if !stack.pop() { break } }
        }
        live.navigation.shown(session.topPane.section)
    }

    private func submitSignIn() {
        guard let service = setup.signIn, let m = onboarding, !busy else { return }
        let bus = session.bus
        switch m.step {
        case .server:
            let typed = m.server.trimmingCharacters(in: .whitespacesAndNewlines)
            busy = true
            updateOnboarding {
                $0.busy = "checking \(typed.isEmpty ? ServerURL.defaultServer : typed) …"
                $0.problem = nil
            }
            service.checkServer(typed, allowInsecureHTTP: m.insecureAllowed) { result in
                bus.post { [weak self] in self?.serverChecked(result) }
            }
        case .key:
            let key = m.key.trimmingCharacters(in: .whitespacesAndNewlines)
            if let why = APIKey.validationError(key) {
                updateOnboarding { $0.problem = SignInProblem.invalidKey(why).description }
                return
            }
            busy = true
            updateOnboarding {
                $0.busy = "checking the key with \(m.serverForKey) …"
                $0.problem = nil
            }
            service.signIn(server: m.serverForKey, key: key, allowInsecureHTTP: m.insecureAllowed) { result in
                bus.post { [weak self] in self?.keyChecked(result) }
            }
        }
    }

    private func serverChecked(_ result: Result<String, SignInProblem>) {
        busy = false
        defer { if case .success(let url) = result, onboarding?.reentry == true { switchToStored(url) } }
        updateOnboarding { m in
            m.busy = nil
            switch result {
            case .success(let url):
                m.checkedServer = url
                m.step = .key
                m.problem = nil
                if m.reentry { m.busy = "looking for a stored key for \(url) …" }
            case .failure(let problem):
                if case .insecureHTTPNeedsConfirmation(let host) = problem { m.confirmInsecureFor = host }
                m.problem = problem.description
            }
        }
    }

    /// From Settings: a server with a key stored earlier is switched to at once (its key is
    /// checked first); without one, step 2 asks for a key.
    private func switchToStored(_ url: String) {
        guard let service = setup.signIn, !busy else { return }
        busy = true
        let bus = session.bus
        service.storedSignIn(forServer: url) { result in
            bus.post { [weak self] in
                guard let self else { return }
                self.busy = false
                switch result {
                case nil: self.updateOnboarding { $0.busy = nil }
                case .some(let answer): self.keyChecked(answer)
                }
            }
        }
    }

    /// `:profile NAME`: the dashboard moves to that stored profile's mesh in place (its key is
    /// checked first; the engine reconnects, the stores and the cache become that profile's).
    /// On any failure the mesh on screen stays, and a toast says why.
    func switchToProfile(named name: String) {
        guard let service = setup.signIn else {
            return live.notificationController.toast(NoticeLine(Self.noSignIn, level: .warn))
        }
        guard !busy else { return }
        guard service.profileNames.contains(name) else {
            let known = service.profileNames.joined(separator: ", ")
            return live.notificationController.toast(
                NoticeLine("no profile named \(name)" + (known.isEmpty ? "" : " (stored: \(known))"), level: .warn))
        }
        busy = true
        live.notificationController.toast(NoticeLine("switching to \(name) …", level: .ok))
        let bus = session.bus
        service.storedSignIn(profileNamed: name) { result in
            bus.post { [weak self] in
                guard let self else { return }
                self.busy = false
                switch result {
                case nil:
                    self.live.notificationController.toast(
                        NoticeLine("no key stored for \(name): makima-tui login --name \(name)", level: .warn))
                case .failure(let problem)?:
                    self.live.notificationController.toast(
                        NoticeLine("\(name): \(problem.description)", level: .danger))
                case .success(let signedIn)?:
                    self.adopt(signedIn, message: "switched to \(name) (\(signedIn.client.profile.displayHost))")
                }
                self.session.setProfileNames(service.profileNames)
            }
        }
    }

    private func keyChecked(_ result: Result<SignedIn, SignInProblem>) {
        busy = false
        switch result {
        case .success(let signedIn):
            let host = signedIn.client.profile.displayHost
            closeOnboarding()
            adopt(signedIn, message: "signed in to \(host) — key stored")
        case .failure(let problem):
            updateOnboarding {
                $0.busy = nil
                $0.problem = problem.description
            }
        }
    }

    /// "Where do I get a key?": the address (`WebSettingsLink`) is shown, copied with OSC 52
    /// (`Clipboard`), and opened with xdg-open when a desktop session is there to show it.
    private func showKeyHelp() {
        guard let m = onboarding else { return }
        guard let url = WebSettingsLink.url(forServer: m.serverForKey, allowInsecureHTTP: true) else {
            return updateOnboarding { $0.info = "type the server first" }
        }
        let environment = setup.environment
        session.writeTerminalControl(Array(Clipboard.osc52(url.absoluteString).utf8))
        var info = "copied \(url.absoluteString): make a key there, then paste it here"
        let desktop = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        if desktop && WebSettingsLink.open(url, with: live.linkOpener) { info += " (opening it in the browser)" }
        updateOnboarding { $0.info = info }
    }

    /// `r` (or `R`) after a refused key: one authenticated call; if the server takes the key
    /// again, the dashboard resumes (a new engine: polling, WebSocket, resync).
    func retryKey() {
        guard case .configured(let client, let key, let source, let cacheKey) = setup.access else { return }
        let current = SignedIn(client: client, key: key, keySource: source, cacheKey: cacheKey)
        guard let service = setup.signIn else {
            return adopt(current, message: "trying the key again …")
        }
        guard !busy else { return }
        busy = true
        session.setBanner(
            NoticeLine("asking \(client.profile.displayHost) whether it takes the key again …", level: .warn))
        let bus = session.bus
        service.verify(current) { problem in
            bus.post { [weak self] in self?.keyVerified(current, problem) }
        }
    }

    private func keyVerified(_ current: SignedIn, _ problem: SignInProblem?) {
        busy = false
        if let problem {
            session.setBanner(
                NoticeLine("still refused: \(problem.description) — r retries it · K enters a new key", level: .danger))
            return
        }
        adopt(current, message: "the server takes the key again — live updates resumed")
    }

    /// Runs the dashboard against `signedIn` from now on: the old engine is halted (stopped at
    /// quit), the server's own cache is opened (another server's stays on disk), a new engine
    /// starts and the pane on screen is fetched at once.
    func adopt(_ signedIn: SignedIn, message: String) {
        var oldCacheKey: String?
        if case .configured(_, _, _, let k) = setup.access { oldCacheKey = k }
        let keepCache = oldCacheKey == signedIn.cacheKey
        retire(live.engine, cache: keepCache ? nil : live.cache)
        live.engine = nil
        if !keepCache {
            // Another server: nothing of the old one stays on screen (its cache stays on disk).
            live.cache = nil
            live.hub.forgetServer()
            live.notificationController.taskTitles = TaskTitleBook()
        }
        live.setup.access = .configured(
            client: signedIn.client, key: signedIn.key, keySource: signedIn.keySource, cacheKey: signedIn.cacheKey)
        // Every pane built without a key read the connection's access: this rebuilds them.
        live.hub.connection.access = .signedIn
        live.hub.connection.link = ConnectionStatus(phase: .connecting)
        live.lostConnection = false
        session.setBanner(nil)
        session.setServerLabel(signedIn.client.profile.mastheadLabel)
        session.setConnectionPill(.connecting)
        session.chrome.set(\.homeNotice, nil)
        live.meshes.shownChanged()
        live.connectEngine()
        live.notificationController.toast(NoticeLine(message, level: .ok))
    }

    /// Settings' sign out removed the stored key and profile: the engine and cache are
    /// retired, nothing of the server stays on screen, and sign-in starts over.
    func signedOut() {
        // Signing in again most often means the same server: its field keeps it (the profile
        // that named it is gone with the key).
        var used: String?
        if case .configured(let client, _, _, _) = live.setup.access { used = client.profile.baseURL.absoluteString }
        session.cancelTimer(id: "poll")
        retire(live.engine, cache: live.cache)
        live.engine = nil
        live.cache = nil
        live.hub.forgetServer()
        live.notificationController.taskTitles = TaskTitleBook()
        live.setup.access = .notConfigured(message: "signed out — sign in to a server to continue")
        live.hub.connection.access = .signedOut
        session.setBanner(nil)
        session.setConnectionPill(.idle)
        session.chrome.homeNotice = NoticeLine("signed out", level: .warn)
        showOnboarding(server: used)
    }

    /// Halts `engine` (it stops on a thread of its own) and keeps it, with a cache no engine
    /// uses any more, until it has stopped: then the cache is closed and both are let go, so
    /// any number of sign-ins (or recoveries from a refused key) leaves no thread or open file
    /// behind. Quit stops what is left.
    func retire(_ old: (any DashboardEngine)?, cache oldCache: CacheStore?) {
        old?.halt()
        if old != nil || oldCache != nil { retired.append((old, oldCache)) }
        releaseStoppedEngines()
    }

    /// Lets go of the retired engines that have stopped, closing their caches; looks again a
    /// second later while one is still stopping (one timer, so at most one look a second).
    private func releaseStoppedEngines() {
        retired.removeAll { r in
            guard r.engine?.hasStopped ?? true else { return false }
            r.cache?.close()
            return true
        }
        guard !retired.isEmpty else { return }
        session.schedule(after: 1, id: "retired") { [weak self] in self?.releaseStoppedEngines() }
    }
}

extension SignInController {
    /// The keys this controller answers (`KeyMap.standard` composes them): `K`, and the sign-in
    /// pane's (the pane keeps its fields; checking them is this controller's).
    nonisolated static let keyBindings: [KeyBinding] = [
        KeyBinding(
            [.char("K")], .enterKey, "enter a new API key (after the server refused the key)",
            context: .global),
        KeyBinding(
            [.ctrl("k")], .keyHelp,
            "where do I get a key? shows and copies <server>/settings",
            context: .signIn, footer: "get a key"),
        KeyBinding(
            [.ctrl("y")], .confirmInsecure, "allow plain http:// to another host (insecure mode)",
            context: .signIn),
        KeyBinding([.ctrl("u")], .clearField, "clear the field", context: .signIn, footer: "clear"),
    ]
}
