import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// A long list read on screen: the pane's title says how far it has come and when a list was
/// cut; after a reconnect the lists not shown wait, stale, until a pane shows them.
@MainActor
@Suite struct ListStreamingControllerTests {
    private let all = ListQuery.tasks(status: nil, contractID: nil)
    private let at = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("the Tasks title shows the read's progress while it loads, then the count; a cut list says so")
    func progressInTheTitle() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.type(.char("3"))
        h.post(.listLoading(all))
        h.post(.listProgress(all, received: 43_000))
        #expect(h.shows("ALL · 43,000 / …"), "\(h.screen)")
        #expect(!h.shows("LOADING"), "\(h.screen)")
        let tasks = (0..<3).map { MeshTask(id: "t-\($0)", title: "task \($0)", status: .running) }
        h.post(.list(all, ListPayload(tasks, bound: .bytes(512 << 20)), fetchedAt: at, fromCache: false))
        #expect(h.shows("3 tasks"), "\(h.screen)")
        #expect(!h.shows("43,000"), "\(h.screen)")
        #expect(h.shows("CUT: over 512 MB"), "\(h.screen)")
    }

    @Test("after a reconnect a list not on screen is marked stale and read when its pane is shown, not before")
    func otherListsWaitUntilShown() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.type(.char("3"))
        h.post(
            .list(all, .tasks([MeshTask(id: "t-1", title: "one", status: .running)]), fetchedAt: at, fromCache: false))
        h.type(.char("5"))
        h.post(.connection(ConnectionStatus(phase: .online)))
        h.post(.connection(ConnectionStatus(phase: .offline(nextRetry: nil), lastError: "reset")))
        h.engine.forgetRefreshes()
        h.post(.connection(ConnectionStatus(phase: .online)))
        #expect(!h.engine.refreshed.map(\.query).contains(all))
        h.engine.forgetRefreshes()
        h.type(.char("3"))
        #expect(h.shows("STALE"), "\(h.screen)")
        #expect(h.engine.refreshed.map(\.query) == [all], "\(h.engine.refreshed)")
    }

    /// The engine reads Home's task lists as the socket opens; their answers may come in the
    /// same batch as ONLINE. Marked stale after the batch, they read `STALE` for minutes: the
    /// dashboard's own ask was the one the engine had already made, so nothing read them again.
    @Test("a list answered in the same batch as the reconnect stays fresh")
    func answeredWithTheReconnect() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let running = ListQuery.tasks(status: .running, contractID: nil)
        func answers(_ title: String) -> [SyncUpdate] {
            let rows = ListPayload.tasks([MeshTask(id: "t-1", title: title, status: .running)])
            return [running, .homeRecentTasks].map { .list($0, rows, fetchedAt: h.live.now(), fromCache: false) }
        }
        h.post(.connection(ConnectionStatus(phase: .online)))
        h.post(answers("before the loss")[0], answers("before the loss")[1])
        h.post(.connection(ConnectionStatus(phase: .offline(nextRetry: nil), lastError: "reset")))
        let read = answers("read as the socket opened")
        h.post(.connection(ConnectionStatus(phase: .online)), read[0], read[1])
        #expect(h.shows("read as the socket opened"), "\(h.screen)")
        #expect(!h.shows("STALE"), "\(h.screen)")
    }
}
