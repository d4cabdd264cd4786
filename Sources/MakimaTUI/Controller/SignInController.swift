import Foundation
import MakimaKit

/// Signing in with the dashboard running: onboarding on an unconfigured start, a key entered
/// again after a 401 (`K`), `r` asking the server whether it takes the key again, and the
/// switch to a server and key the server accepted (`adopt`), which starts a new engine
/// without a restart. Every check runs through the sign-in service off the UI thread; its
/// answer comes back as a job on the UI bus. `LiveDashboard` holds one and forwards to it.
///
/// The swap itself is the dashboard's (`SessionSwitching`); this controller decides when,
/// says so on screen and retires what was let go.
@MainActor
final class SignInController {
    /// A sign-in check is running (one at a time).
    var busy = false
    /// Engines and caches replaced by a sign-in, until they have stopped.
    let retiredEngines: RetiredEngines
    var retired: [RetiredEngines.Retired] { retiredEngines.all }

    /// Nil: the dashboard only says how to run `makima-tui login`.
    let service: (any SignInService)?
    /// Whether a desktop session is there to show a browser (the key help).
    private let environment: [String: String]
    private unowned let servers: any SessionSwitching
    private unowned let screen: any PaneStackEditing & TimerScheduling & TerminalSignals
    private let bus: UIBus
    /// The banner of a refused key asked about again.
    private let chrome: ChromeStore
    private let linkOpener: LinkOpener
    /// Puts the sign-in pane on top (`NavigationController.show`).
    private let show: (any Pane) -> Void
    /// A pane is on screen again once the sign-in pane goes (`NavigationController.shown`).
    private let shown: (PaneID) -> Void
    let toast: (NoticeLine) -> Void
    /// The stored profiles' names changed (`:profile`'s completion).
    let profileNamesChanged: ([String]) -> Void

    init(
        service: (any SignInService)?, environment: [String: String], servers: any SessionSwitching,
        screen: any PaneStackEditing & TimerScheduling & TerminalSignals, bus: UIBus, chrome: ChromeStore,
        linkOpener: LinkOpener, show: @escaping (any Pane) -> Void, shown: @escaping (PaneID) -> Void,
        toast: @escaping (NoticeLine) -> Void, profileNamesChanged: @escaping ([String]) -> Void
    ) {
        self.service = service
        self.environment = environment
        self.servers = servers
        self.screen = screen
        self.bus = bus
        self.chrome = chrome
        self.linkOpener = linkOpener
        self.show = show
        self.shown = shown
        self.toast = toast
        self.profileNamesChanged = profileNamesChanged
        retiredEngines = RetiredEngines(timers: screen)
    }

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
    var onboarding: OnboardingModel? { (screen.topPane as? OnboardingPane)?.model }

    func updateOnboarding(_ body: (inout OnboardingModel) -> Void) {
        screen.updatePanes { stack in
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
        guard let service else { return }
        let model = OnboardingModel(server: server ?? service.suggestedServer)
        screen.updatePanes { stack in
            while stack.top.id == .onboarding || !stack.top.isTopLevel { if !stack.pop() { break } }
            stack.jump(to: .home)
        }
        show(OnboardingPane(model: model))
    }

    /// `K`: step 2 in place for the signed-in server (the usual way out of a refused key).
    func enterNewKey() {
        guard service != nil else {
            return toast(NoticeLine(Self.noSignIn, level: .warn))
        }
        guard case .configured(let client, _, _, _) = servers.access else { return showOnboarding() }
        if screen.topPane.id == .onboarding { return }
        var model = OnboardingModel(
            server: client.profile.baseURL.absoluteString, reentry: true,
            checkedServer: client.profile.baseURL.absoluteString)
        model.insecureAllowed = client.profile.allowInsecureHTTP
        show(OnboardingPane(model: model))
    }

    static let noSignIn = "signing in is not available here — run `makima-tui login`"

    private func closeOnboarding() {
        screen.updatePanes { stack in
            while stack.top.id == .onboarding { if !stack.pop() { break } }
        }
        shown(screen.topPane.section)
    }

    private func submitSignIn() {
        guard let service, let m = onboarding, !busy else { return }
        switch m.step {
        case .server:
            let typed = m.server.trimmingCharacters(in: .whitespacesAndNewlines)
            updateOnboarding {
                $0.busy = "checking \(typed.isEmpty ? ServerURL.defaultServer : typed) …"
                $0.problem = nil
            }
            whileBusy {
                service.checkServer(typed, allowInsecureHTTP: m.insecureAllowed, done: $0)
            } answered: {
                $0.serverChecked($1)
            }
        case .key:
            let key = m.key.trimmingCharacters(in: .whitespacesAndNewlines)
            if let why = APIKey.validationError(key) {
                updateOnboarding { $0.problem = SignInProblem.invalidKey(why).description }
                return
            }
            updateOnboarding {
                $0.busy = "checking the key with \(m.serverForKey) …"
                $0.problem = nil
            }
            whileBusy {
                service.signIn(server: m.serverForKey, key: key, allowInsecureHTTP: m.insecureAllowed, done: $0)
            } answered: {
                $0.keyChecked($1)
            }
        }
    }

    private func serverChecked(_ result: Result<String, SignInProblem>) {
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
        guard let service, !busy else { return }
        whileBusy {
            service.storedSignIn(forServer: url, done: $0)
        } answered: { me, result in
            switch result {
            case nil: me.updateOnboarding { $0.busy = nil }
            case .some(let answer): me.keyChecked(answer)
            }
        }
    }

    /// Runs a call of the sign-in service with the controller busy (one at a time); `answered`
    /// gets its answer on the UI thread, the controller no longer busy.
    func whileBusy<Answer: Sendable>(
        _ call: (@escaping @Sendable (Answer) -> Void) -> Void,
        answered: @escaping @MainActor (SignInController, Answer) -> Void
    ) {
        busy = true
        let bus = self.bus
        call { answer in
            bus.post { [weak self] in
                guard let self else { return }
                self.busy = false
                answered(self, answer)
            }
        }
    }

    private func keyChecked(_ result: Result<SignedIn, SignInProblem>) {
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
        screen.writeTerminalControl(Array(Clipboard.osc52(url.absoluteString).utf8))
        var info = "copied \(url.absoluteString): make a key there, then paste it here"
        let desktop = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        if desktop && WebSettingsLink.open(url, with: linkOpener) { info += " (opening it in the browser)" }
        updateOnboarding { $0.info = info }
    }

    /// `r` (or `R`) after a refused key: one authenticated call; if the server takes the key
    /// again, the dashboard resumes (a new engine: polling, WebSocket, resync).
    func retryKey() {
        guard case .configured(let client, let key, let source, let cacheKey) = servers.access else { return }
        let current = SignedIn(client: client, key: key, keySource: source, cacheKey: cacheKey)
        guard let service else {
            return adopt(current, message: "trying the key again …")
        }
        guard !busy else { return }
        chrome.set(
            \.banner,
            NoticeLine("asking \(client.profile.displayHost) whether it takes the key again …", level: .warn))
        whileBusy {
            service.verify(current, done: $0)
        } answered: {
            $0.keyVerified(current, $1)
        }
    }

    private func keyVerified(_ current: SignedIn, _ problem: SignInProblem?) {
        if let problem {
            chrome.set(
                \.banner,
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
        if case .configured(_, _, _, let k) = servers.access { oldCacheKey = k }
        // Another server: nothing of the old one stays on screen (its cache stays on disk).
        let old = servers.detach(keepingServer: oldCacheKey == signedIn.cacheKey)
        retire(old.engine, cache: old.cache)
        servers.use(signedIn)
        toast(NoticeLine(message, level: .ok))
    }

    /// Settings' sign out removed the stored key and profile: the engine and cache are
    /// retired, nothing of the server stays on screen, and sign-in starts over.
    func signedOut() {
        // Signing in again most often means the same server: its field keeps it (the profile
        // that named it is gone with the key).
        var used: String?
        if case .configured(let client, _, _, _) = servers.access { used = client.profile.baseURL.absoluteString }
        screen.cancelTimer(id: "poll")
        let old = servers.detach(keepingServer: false)
        retire(old.engine, cache: old.cache)
        servers.useNone(saying: "signed out — sign in to a server to continue")
        chrome.homeNotice = NoticeLine("signed out", level: .warn)
        showOnboarding(server: used)
    }
    func retire(_ old: (any DashboardEngine)?, cache oldCache: CacheStore?) {
        retiredEngines.retire(old, cache: oldCache)
    }
}
