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
}
