import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// A dashboard left open stays true: the pane on screen is fetched again when its lists get
/// old, ages move on by themselves, live events notify whatever their timestamp, and number
/// keys go to a pane's root.
@MainActor @Suite("What stays on screen stays true")
struct TruthControllerTests {
    func daemons(_ h: ControllerHarness, heartbeat: Date, status: DaemonStatus = .online) -> SyncUpdate {
        .list(
            .daemons, .daemons([Daemon(id: "d1", hostname: "host-one", status: status, lastHeartbeat: heartbeat)]),
            fetchedAt: h.live.now(), fromCache: false)
    }

    func refreshes(_ h: ControllerHarness, _ q: ListQuery) -> Int { h.engine.refreshed.filter { $0.query == q }.count }

    @Test("Daemons on screen is fetched again once its list is 30 s old, with no key pressed")
    func daemonsPoll() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.type(.char("5"))
        h.post(daemons(h, heartbeat: h.live.now()))
        h.engine.forgetRefreshes()
        h.advance(25)
        #expect(refreshes(h, .daemons) == 0)
        h.advance(6)
        #expect(refreshes(h, .daemons) == 1)
        // The answer shows the server's new truth.
        h.post(daemons(h, heartbeat: h.live.now().addingTimeInterval(-42), status: .offline))
        #expect(h.shows("OFFLINE"), "\(h.screen)")
        // And it keeps going while the pane stays.
        h.advance(31)
        #expect(refreshes(h, .daemons) == 2)
    }

    @Test("a hidden pane is fetched when shown only if its lists went stale meanwhile")
    func hiddenPaneRefreshedWhenStale() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let listen = ListQuery.listenSessions(limit: nil)
        h.type(.char("6"))
        h.post(.list(listen, .listenSessions([]), fetchedAt: h.live.now(), fromCache: false))
        h.type(.char("2"))
        h.engine.forgetRefreshes()
        h.advance(5)
        h.type(.char("6"))
        #expect(refreshes(h, listen) == 0, "fresh: shown as it is")
        h.type(.char("2"))
        h.advance(40)
        h.engine.forgetRefreshes()
        h.type(.char("6"))
        #expect(refreshes(h, listen) == 1, "stale: fetched as it comes on screen")
    }

    @Test("task lists, kept current by events, get a slow safety refresh (5 min), not every 30 s")
    func tasksSafetyRefresh() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let tasks = ListQuery.tasks(status: nil, contractID: nil)
        h.type(.char("3"))
        h.post(.list(tasks, .tasks([]), fetchedAt: h.live.now(), fromCache: false))
        h.engine.forgetRefreshes()
        h.advance(31)
        h.advance(31)
        #expect(refreshes(h, tasks) == 0)
        h.advance(RefreshPolicy.period(of: tasks))
        #expect(refreshes(h, tasks) == 1)
    }

    @Test("a heartbeat's age moves on between frames with no event; no frame while no age would change")
    func agesTick() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.type(.char("5"))
        h.post(daemons(h, heartbeat: h.live.now()))
        #expect(h.shows("♥ 0s ago"), "\(h.screen)")
        h.advance(1)
        #expect(h.shows("♥ 1s ago"), "\(h.screen)")
        h.advance(1)
        #expect(h.shows("♥ 2s ago"), "\(h.screen)")
        // Minutes old: the text changes once a minute, and nothing is drawn in between.
        h.post(daemons(h, heartbeat: h.live.now().addingTimeInterval(-600.5)))
        #expect(h.shows("♥ 10m ago"), "\(h.screen)")
        let frames = h.terminal.backend.flushCount
        for _ in 0..<20 { h.advance(1) }
        #expect(h.terminal.backend.flushCount == frames, "no age changed: no frame")
        h.advance(41)
        #expect(h.shows("♥ 11m ago"), "\(h.screen)")
    }

    @Test("Home's STALE marker counts up while the server refuses the key")
    func staleAgeTicks() throws {
        let h = try ControllerHarness(signIn: ScriptedSignIn())
        defer { h.cleanUp() }
        h.post(daemons(h, heartbeat: h.live.now()))
        h.post(.unauthorized(message: "401"))
        h.advance(8)
        #expect(h.shows("STALE 8s"), "\(h.screen)")
        h.advance(62)
        #expect(h.shows("STALE 1m"), "\(h.screen)")
    }

    @Test("several notifications at once: one summary toast, and o opens the list, not one of them")
    func summaryAndO() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(
            .list(
                .tasks(status: nil, contractID: nil),
                .tasks([
                    MeshTask(id: "t1", title: "deploy api", status: .failed),
                    MeshTask(id: "t2", title: "nightly build", status: .completed),
                ]), fetchedAt: h.live.now(), fromCache: false))
        h.post(
            .notifications([
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 1), kind: .taskFailed, title: "Task failed", body: "t1",
                    link: .task("t1"), at: Date()),
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 2), kind: .taskCompleted, title: "Task completed", body: "t2",
                    link: .task("t2"), at: Date()),
            ]))
        #expect(h.shows("1 task failed, 1 task completed"), "\(h.screen)")
        h.type(.char("o"))
        #expect(h.shows("NOTIFICATIONS//"), "\(h.screen)")
        #expect(h.engine.followed.isEmpty, "o opened no single task")
    }

    @Test("one notification: o opens what the toast names, even when an older one is newer in the store")
    func oOpensTheToast() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(
            .list(
                .tasks(status: nil, contractID: nil),
                .tasks([MeshTask(id: "t1", title: "deploy api", status: .failed)]), fetchedAt: h.live.now(),
                fromCache: false))
        h.post(
            .notifications([
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 1), kind: .taskFailed, title: "Task failed", body: "t1",
                    link: .task("t1"), at: Date())
            ]))
        #expect(h.shows("Task failed: deploy api"), "\(h.screen)")
        h.type(.char("o"))
        #expect(h.engine.followed == ["t1"])
    }

    @Test("3 after launching with a deep link to a task reaches Tasks; breadcrumbs show the path")
    func numberKeyAfterDeepLink() throws {
        let h = try ControllerHarness(deepLink: .task("t-3"))
        defer { h.cleanUp() }
        #expect(h.session.topPane is TaskOutputPane)
        h.type(.char("3"))
        #expect(h.loop.app.stack.ids == [.home, .tasks])
        #expect(h.session.topPane is ListPane, "the Tasks list, not the task")
        h.type(.char("4"))
        #expect(h.loop.app.stack.ids == [.home, .directives])
        #expect(!h.shows("› TASK"), "\(h.screen)")
    }

    @Test("Settings' stream figures come from the store: a batch that changed them redraws Settings, no hand mark")
    func settingsFollowTheStore() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.type(.char("7"))
        h.engine.counters.eventsApplied = 4321
        h.post(.connection(ConnectionStatus(phase: .online)))
        #expect(h.live.hub.connection.counters.eventsApplied == 4321)
        #expect(h.shows("4321"), "\(h.screen)")
    }

    @Test("a list result the hub ignores says so: the store's notice reaches the screen")
    func hubNoticeShows() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(
            .list(
                .daemons, .tasks([MeshTask(id: "t1", title: "x", status: .running)]), fetchedAt: Date(),
                fromCache: false))
        #expect(h.shows("ignored a result that did not match its query"), "\(h.screen)")
    }
}

@MainActor @Suite("Destinations are described once (Destinations, each link kind beside its list kind)")
struct RouteRegistryTests {
    @Test("every kind of deep link, from the registry: its entry, its pane, and the pane it opens shows it")
    func everyLinkHasItsRoute() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let kinds = Destinations.linkKinds
        #expect(kinds.count >= 4)
        for kind in kinds {
            let link = DeepLink(kind, "\(kind)-1")
            #expect(DeepLink(link.description) == link, "\(link) prints and parses back")
            let destination = try #require(Destinations.reached(by: kind), "\(kind) has no Destinations entry")
            let list = try #require(destination.list, "\(kind) names no list pane")
            #expect(PaneRegistry.current[list] != nil, "\(kind)'s list \(list) is a top-level pane")
            h.live.navigation.open(link)
            h.step()
            #expect(h.session.topPane.id == destination.pane, "\(link)")
            #expect(h.session.topPane.section == list, "\(link)")
            if destination.open == nil {
                // A row of its list with no detail of its own (a daemon): the list is shown,
                // the row selected once the list holds it.
                #expect(h.session.topPane.isTopLevel, "\(link)")
                continue
            }
            #expect(h.session.topPane.shownLink == link, "\(link)")
            h.type(.escape)
        }
        #expect(Destinations.reached(by: .task)?.list == .tasks)
        #expect(Destinations.reached(by: .listen)?.noun == "listen session")
    }

    @Test("every destination, from the registry: opened, its pane is on top with its own id")
    func everyDestinationOpensItsPane() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        for destination in Destinations.current.all {
            guard let open = destination.open else { continue }
            let subject = destination.pane == .picker ? PaneID.tasks.rawValue : "subject-1"
            open(h.live, subject, h.live.now())
            h.step()
            #expect(h.session.topPane.id == destination.pane, "\(destination.pane)")
            #expect(PaneRegistry.current[h.session.topPane.section] != nil, "\(destination.pane)'s section")
            h.type(.escape)
        }
    }

    @Test(":open makima://KIND/ID opens what the link names through its entry, the id as typed")
    func openCommandTakesADeepLink() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.type(.char(":"))
        for c in "open makima://contract/C-Mixed7" { h.type(.char(c)) }
        h.type(.enter)
        #expect(h.session.topPane.id == .contract, "\(h.screen)")
        #expect(h.session.topPane.shownLink == .contract("C-Mixed7"))
        #expect(h.engine.details == [.contract("C-Mixed7")])
    }

    @Test("a detail fetch answered 404 shows the route's not-found screen in place of the waiting pane")
    func notFoundByRoute() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.live.navigation.open(.contract("c-missing"))
        h.post(.detailNotFound(.contract("c-missing")))
        #expect(h.shows("CONTRACT NOT FOUND"), "\(h.screen)")
        #expect(h.shows("c-missing"))
    }

    @Test("adding a pane: every PaneID has its registry entry, and : reaches each by name")
    func everyPaneHasItsEntry() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        for id in PaneID.topLevel {
            let spec = try #require(PaneRegistry.current[id], "\(id) has no PaneRegistry entry")
            #expect(spec.id == id)
            h.type(.char(":"))
            for c in id.rawValue { h.type(.char(c)) }
            h.type(.enter)
            #expect(h.session.topPane.id == id, "\(id)")
        }
    }

    @Test("number keys stop at 9: a tenth pane is reached by name, its digit does nothing, and nothing traps")
    func numberKeysBounded() throws {
        let extra = (1...4).map { n in
            PaneSpec(
                id: PaneID(rawValue: "extra\(n)"), shortTitle: "EX\(n)", term: nil,
                build: { _ in .list(ListPaneViewModel(emptyMessage: "extra \(n)")) },
                make: { ListPane(id: PaneID(rawValue: "extra\(n)")) })
        }
        let panes = extra.reduce(PaneRegistry.current) { $0.adding($1) }
        try PaneRegistry.$current.withValue(panes) {
            let h = try ControllerHarness()
            defer { h.cleanUp() }
            #expect(PaneID.topLevel.count == 11)
            h.type(.char("9"))
            #expect(h.session.topPane.id == PaneID(rawValue: "extra2"))
            h.type(.char("0"))
            #expect(h.session.topPane.id == PaneID(rawValue: "extra2"), "0 names no pane")
            h.type(.char("1"))
            #expect(h.session.topPane.id == .home)
            h.type(.char(":"))
            for c in "extra4" { h.type(.char(c)) }
            h.type(.enter)
            #expect(h.session.topPane.id == PaneID(rawValue: "extra4"), "the eleventh by name")
            #expect(h.shows("EXTRA4"), "\(h.screen)")
        }
    }
}
