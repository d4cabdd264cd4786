import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The session's stack, timers and terminal as the controllers see them, with no loop under
/// them: what a controller changed is read back here.
@MainActor
final class FakeScreen: PaneStackEditing, TimerScheduling, TerminalSignals {
    var stack = PaneStack(make: { $0.spec.make() })
    private(set) var scheduled: [String] = []
    private(set) var cancelled: [String] = []
    private(set) var controlBytes: [[UInt8]] = []

    var topPane: any Pane { stack.top }
    func updatePanes(_ body: (inout PaneStack) -> Void) { body(&stack) }
    func push(_ pane: any Pane) { stack.push(pane) }
    func schedule(after seconds: Double, id: String, _ action: @escaping @MainActor () -> Void) {
        scheduled.append(id)
    }
    func cancelTimer(id: String) { cancelled.append(id) }
    func bell() {}
    func writeTerminalControl(_ bytes: [UInt8]) { controlBytes.append(bytes) }
    var terminalFocused: Bool?
}

/// Records the list fetches navigation asks for.
@MainActor
final class FakeLists: ListRefreshing {
    private(set) var asked: [String] = []
    func refresh(_ pane: PaneID, force: Bool) { asked.append("refresh \(pane)\(force ? " forced" : "")") }
    func fetch(_ queries: [ListQuery], force: Bool) { asked.append("fetch \(queries.count)") }
    func poll(_ pane: PaneID) { asked.append("poll \(pane)") }
}

/// Records which `Destinations` entries navigation runs, and for what.
@MainActor
final class FakeDestinations: DestinationRunning {
    private(set) var opened: [String] = []
    private(set) var rebuilt: [PaneID] = []
    func open(_ destination: Destination, subject: String, at now: Date) {
        opened.append("\(destination.pane) \(subject)")
    }
    func rebuild(_ destination: Destination, _ pane: any Pane, at now: Date) { rebuilt.append(destination.pane) }
}

/// The server in use and its swaps, recorded; the engine let go is the one the test gave.
@MainActor
final class FakeServers: SessionSwitching {
    var access: LiveSetup.Access
    var engine: (any DashboardEngine)?
    private(set) var swaps: [String] = []

    init(_ access: LiveSetup.Access) { self.access = access }

    func detach(keepingServer: Bool) -> (engine: (any DashboardEngine)?, cache: CacheStore?) {
        swaps.append(keepingServer ? "detach keeping the server" : "detach all")
        defer { engine = nil }
        return (engine, nil)
    }

    func use(_ signedIn: SignedIn) {
        swaps.append("use \(signedIn.client.profile.displayHost) \(signedIn.cacheKey)")
        access = .configured(
            client: signedIn.client, key: signedIn.key, keySource: signedIn.keySource, cacheKey: signedIn.cacheKey)
    }

    func useNone(saying message: String) {
        swaps.append("none")
        access = .notConfigured(message: message)
    }
}

@MainActor @Suite("Controllers driven through their narrow dependencies, with no LiveDashboard")
struct ControllerDependenciesTests {
    let at = Date(timeIntervalSince1970: 1_800_000_000)

    final class Calls { var performed: [SettingsAction] = [], taskOutputClosed = 0, toasts: [String] = [] }

    func navigation(_ screen: FakeScreen, _ lists: FakeLists, _ destinations: FakeDestinations, _ calls: Calls)
        throws -> NavigationController
    {
        let bindings = PaneBindings { _ in }
        let at = self.at
        return NavigationController(
            session: screen, hub: StoreHub(), bindings: bindings, lists: lists, destinations: destinations,
            perform: { calls.performed.append($0) }, closeTaskOutput: { calls.taskOutputClosed += 1 }, now: { at })
    }

    @Test("navigation: f, Enter on rows, a link and a pick reach fetches, Settings and Destinations entries")
    func navigationThroughItsDependencies() throws {
        let (screen, lists, destinations, calls) = (FakeScreen(), FakeLists(), FakeDestinations(), Calls())
        let nav = try navigation(screen, lists, destinations, calls)

        nav.nextFilter(.contracts)
        #expect(nav.filter(.contracts) == PaneID.contracts.spec.filterCycle[1])
        #expect(lists.asked == ["refresh contracts"])

        // A row with nothing to drill into: its pane comes on screen, the row waits for its list.
        nav.openRow(.daemons, "d-7")
        #expect(screen.topPane.id == .daemons)
        #expect(calls.taskOutputClosed == 1 && screen.cancelled == ["poll"])
        #expect(lists.asked.last == "poll daemons")
        #expect(nav.pendingSelection[.daemons] == "d-7")

        nav.openRow(.settings, SettingsAction.nextTheme.rowID)
        #expect(calls.performed == [.nextTheme])

        // A link runs its destination's entry (its fetch is the entry's), noted for "not found".
        nav.open(.contract("c1"))
        #expect(destinations.opened == ["contract c1"])
        #expect(nav.detailOpened[.contract("c1")] == at)
        #expect(screen.cancelled == ["poll", "poll"])

        // The picker's pick: it goes, and the pane's lists are asked for again.
        screen.push(PickerPane(owner: .tasks, title: "contract", choices: [], current: nil))
        nav.setScope(.tasks, "c1")
        #expect(screen.topPane.id == .daemons)
        #expect(nav.scopes[.tasks] == .some("c1"))
        #expect(lists.asked.last == "refresh tasks")
    }

    func signIn(
        _ service: ScriptedSignIn, _ servers: FakeServers, _ screen: FakeScreen, _ bus: UIBus, _ chrome: ChromeStore,
        _ calls: Calls
    ) -> SignInController {
        SignInController(
            service: service, environment: [:], servers: servers, screen: screen, bus: bus, chrome: chrome,
            linkOpener: LinkOpener(launcher: ChildLauncher(environment: [:])), show: { screen.push($0) },
            shown: { _ in }, toast: { calls.toasts.append($0.text) }, profileNamesChanged: { _ in })
    }

    @Test("sign-in: a key taken again keeps the server; another server lets all go; sign out uses none")
    func signInSwapsThroughSessionSwitching() throws {
        let first = try signedIn("http://one.example:9000", "mk_first_key_0001")
        let servers = FakeServers(
            .configured(client: first.client, key: first.key, keySource: "stored", cacheKey: "one"))
        let (screen, calls) = (FakeScreen(), Calls())
        let bus = UIBus(wakePipe: try WakePipe())
        let chrome = ChromeStore(masthead: MastheadModel(serverLabel: "one", version: "0", pill: .idle, clock: ""))
        let service = ScriptedSignIn()
        let controller = signIn(service, servers, screen, bus, chrome, calls)
        let engine = RecordingEngine(outbox: SyncOutbox())
        servers.engine = engine

        // `r` after a refused key: the server takes it again; the engine is let go and halted,
        // the cache stays (the same server), the dashboard runs on.
        service.script.withLock { $0.verifies = [nil] }
        controller.retryKey()
        #expect(chrome.banner?.text.hasPrefix("asking one.example:9000") == true)
        bus.runPending()
        #expect(servers.swaps == ["detach keeping the server", "use one.example:9000 one"])
        #expect(engine.halted == 1)
        #expect(calls.toasts.last == "the server takes the key again — live updates resumed")

        var second = try signedIn("http://two.example:9000", "mk_second_key_0002")
        second.cacheKey = "two"
        controller.adopt(second, message: "to two")
        #expect(servers.swaps.suffix(2) == ["detach all", "use two.example:9000 two"])

        controller.signedOut()
        #expect(servers.swaps.suffix(2) == ["detach all", "none"])
        #expect(chrome.homeNotice?.text == "signed out")
        let onboarding = try #require(screen.topPane as? OnboardingPane)
        #expect(onboarding.model.server == "http://two.example:9000")
    }

    @Test("meshes: the server in use is left out of the background reads, and what is new is toasted")
    func meshesFollowTheServerInUse() throws {
        let profiles = ["prod", "staging"].map { MeshesCardTests().profile($0) }
        let key = try #require(APIKey("mk_meshes_test_0001"))
        let onProd = LiveSetup.Access.configured(
            client: APIClient(profile: profiles[0].profile, key: key), key: key, keySource: "stored", cacheKey: "prod")
        let servers = FakeServers(onProd)
        let store = MeshesStore()
        store.profiles = profiles
        let calls = Calls()
        let meshes = MeshesController(
            store: store, profiles: nil, server: servers, bus: UIBus(wakePipe: try WakePipe()),
            toast: { calls.toasts.append($0.text) }, clock: { Date(timeIntervalSince1970: 1_800_000_000) })

        meshes.shownChanged()
        #expect(store.shown == "prod")
        meshes.received(.init(name: "staging", outcome: .success(questions(["d1"]))))
        meshes.received(.init(name: "staging", outcome: .success(questions(["d1", "d2"]))))
        #expect(calls.toasts == ["staging: 1 new question"])

        // The switch to staging: its reads are the engine's now, a background answer is dropped.
        servers.use(SignedIn(client: APIClient(profile: profiles[1].profile, key: key), key: key, keySource: "stored"))
        meshes.shownChanged()
        #expect(store.shown == "staging")
        meshes.received(.init(name: "staging", outcome: .success(questions(["d1", "d2", "d3"]))))
        #expect(store.readings["staging"] == nil)
        #expect(calls.toasts.count == 1)
    }

    /// A background read of pending questions (`MeshesControllerTests`' own).
    func questions(_ ids: [String]) -> MeshReading { MeshesControllerTests().reading(questions: ids) }
}
