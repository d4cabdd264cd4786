import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The chrome (masthead, banner, toast, theme, Home's notice and activity, the grep answer)
/// lives in an observed store: each test writes it directly, with no setter that asks for a
/// frame, and the screen follows on the next turn of the loop.
@MainActor @Suite("Chrome store: the masthead, banner, toast and Home's parts are observed")
struct ChromeStoreTests {
    /// Steps the loop once, past the frame interval (a change no key asked for); true when it
    /// drew a frame.
    func turn(_ h: ControllerHarness) -> Bool {
        h.clock.now += EventLoop.dataFrameInterval
        return h.loop.step(now: h.clock.now)
    }

    /// Without a cache: no read of Home's activity answers from another thread mid-test.
    func uncachedHarness() throws -> ControllerHarness {
        try ControllerHarness(configure: { $0.environment["MAKIMA_CACHE_DIR"] = "/dev/null/no-cache" })
    }

    @Test("a toast, a banner and a server label written to the app's chrome draw a frame each")
    func chromeWritesDraw() throws {
        let h = try uncachedHarness()
        defer { h.cleanUp() }
        #expect(!turn(h), "idle: nothing to draw")
        h.loop.app.toast = NoticeLine("toast-written-directly", level: .ok)
        #expect(turn(h))
        #expect(h.shows("toast-written-directly"), "\(h.screen)")
        h.loop.app.banner = NoticeLine("banner-written-directly", level: .warn)
        #expect(turn(h))
        #expect(h.shows("banner-written-directly"), "\(h.screen)")
        h.loop.app.masthead.serverLabel = "label-written-directly"
        #expect(turn(h))
        #expect(h.shows("label-written-directly"), "\(h.screen)")
        #expect(!turn(h), "nothing changed since: no frame")
    }

    @Test("writing the value already shown draws nothing")
    func sameValueDrawsNothing() throws {
        let h = try uncachedHarness()
        defer { h.cleanUp() }
        h.session.setToast(NoticeLine("once", level: .ok))
        h.step()
        let before = h.terminal.backend.flushCount
        h.session.setToast(NoticeLine("once", level: .ok))
        h.session.setServerLabel(h.loop.app.masthead.serverLabel)
        h.step()
        #expect(h.terminal.backend.flushCount == before)
    }

    @Test("an offline countdown ticks through the store: drawn as it moves, nothing once online")
    func pillCountdownIsObserved() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(.connection(ConnectionStatus(phase: .offline(nextRetry: Date().addingTimeInterval(30)))))
        let shown = h.loop.app.masthead.pill
        let before = h.terminal.backend.flushCount
        h.advance(1)
        #expect(h.loop.app.masthead.pill != shown, "the countdown moved: \(h.loop.app.masthead.pill)")
        #expect(h.terminal.backend.flushCount > before)
        #expect(h.shows(h.loop.app.masthead.pill.label(glyphs: .unicode)), "\(h.screen)")
        h.post(.connection(ConnectionStatus(phase: .online)))
        let online = h.terminal.backend.flushCount
        h.advance(5)
        #expect(h.terminal.backend.flushCount == online)
    }

    @Test("Home's notice and theme row are read from the chrome store in Home's build")
    func homePartsFromTheStore() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.session.chrome.homeNotice = NoticeLine("notice-from-the-store", level: .warn)
        h.step()
        #expect(home(h)?.model.notice == NoticeLine("notice-from-the-store", level: .warn))
        h.session.chrome.themeName = "light"
        h.step()
        #expect(home(h)?.model.statusRows.first { $0.label == "Theme" } == StatusRow("Theme", "LIGHT", .ok))
        // Written while another pane is on screen: Home shows it when it comes back.
        h.type(.char("2"))
        h.session.chrome.homeNotice = NoticeLine("written-while-away", level: .ok)
        h.step()
        #expect(!h.shows("written-while-away"))
        h.type(.char("1"))
        #expect(home(h)?.model.notice == NoticeLine("written-while-away", level: .ok))
    }

    @Test("the grep pane follows its answer and the stores: a hit's task completing shows, the selection stays")
    func grepFollowsTheStores() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let tasks = [
            MeshTask(id: "t1", title: "first job", status: .running),
            MeshTask(id: "t2", title: "second job", status: .running),
        ]
        h.post(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: Date(), fromCache: false))
        // Pushed as `:grep` pushes it, without running a search of the (empty) cache.
        h.session.push(GrepPane(pattern: "needle"))
        h.step()
        #expect(h.shows("searching"), "\(h.screen)")
        // The answer, as the search's job on the bus writes it.
        let hits = ["t1", "t2"].enumerated().map { i, id in
            OutputSearchHit(taskID: id, lineNumber: i + 1, seq: 1, line: "a needle in \(id)", lastActive: Date())
        }
        h.session.chrome.grep = GrepAnswer(pattern: "needle", hits: hits, failure: nil)
        h.step()
        #expect(h.shows("a needle in t2"), "\(h.screen)")
        h.type(.char("j"))
        let selected = (h.session.topPane as? GrepPane)?.list.selectedRow?.id
        h.live.hub.apply(.task(MeshTask(id: "t2", title: "second job", status: .completed)))
        h.step()
        #expect(h.shows("COMPLETED"), "\(h.screen)")
        #expect((h.session.topPane as? GrepPane)?.list.selectedRow?.id == selected)
    }

    func home(_ h: ControllerHarness) -> HomePane? { h.session.topPane as? HomePane }
}
