import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The kinds of list as their entries describe them: the requests and cache keys the
/// dashboard always used, every kind's store reached by the hub's registry, and the lists read
/// from the cache at start-up.
@MainActor @Suite struct ListKindRegistryTests {
    private func wire(_ q: ListQuery) -> String {
        let e = q.endpoint
        let sent = e.query.compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: "&")
        return e.segments.joined(separator: "/") + (sent.isEmpty ? "" : "?" + sent)
    }

    @Test func eachQueryAsksWhatItAlwaysAskedAndKeepsItsCacheKey() {
        let page = ListPaging.pageSize
        let expected: [(ListQuery, String, String)] = [
            (.daemons, "mesh/daemons", "daemons"),
            (.contracts(status: nil), "contracts", "contracts?status="),
            (.contracts(status: .active), "contracts?status=active", "contracts?status=active"),
            (.tasks(status: nil, contractID: nil), "mesh/tasks?limit=\(page)", "tasks?status=&contract_id="),
            (
                .tasks(status: .running, contractID: "c1"), "mesh/tasks?status=running&contract_id=c1&limit=\(page)",
                "tasks?status=running&contract_id=c1"
            ),
            (.homeRecentTasks, "mesh/tasks?limit=12", "tasks?limit=12"),
            (.directives(pendingOnly: false), "directives", "directives?pending=false"),
            (.directives(pendingOnly: true), "directives?pending=true", "directives?pending=true"),
            (.listenSessions(limit: nil), "listen/sessions", "listen?limit="),
            (.listenSessions(limit: 1), "listen/sessions?limit=1", "listen?limit=1"),
        ]
        for (query, request, key) in expected {
            #expect(wire(query) == request)
            #expect(query.description == key)
        }
        #expect(ListQuery.contracts(status: nil) != ListQuery.contracts(status: .active))
        #expect(ListQuery.listenSessions(limit: 1).maxPages == 1 && ListQuery.daemons.maxPages == ListPaging.maxPages)
        #expect(RefreshPolicy.period(of: .daemons) == 30 && RefreshPolicy.period(of: .homeRecentTasks) == 300)
    }

    @Test func markAllStaleAndForgetServerReachEveryKindsStore() {
        let hub = StoreHub()
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let lists: [(ListQuery, ListPayload)] = [
            (.daemons, .daemons([Daemon(id: "d1", status: .online)])),
            (.contracts(status: .active), .contracts([Contract(id: "c1", name: "c", phase: "", status: .active)])),
            (.tasks(status: nil, contractID: nil), .tasks([MeshTask(id: "t1", status: .running)])),
            (.directives(pendingOnly: true), .directives([Directive(id: "x1", title: "x", status: "active")])),
            (.listenSessions(limit: 1), .listenSessions([ListenSession(id: "l1")])),
        ]
        for (q, p) in lists { hub.apply(.list(q, p, fetchedAt: at, fromCache: false)) }
        let states: () -> [(stale: Bool, loaded: Bool, count: Int)] = {
            [
                (hub.daemons.list.isStale, hub.daemons.list.hasLoaded, hub.daemons.list.items.count),
                (
                    hub.contracts.list(.active).isStale, hub.contracts.list(.active).hasLoaded,
                    hub.contracts.list(.active).items.count
                ),
                (
                    hub.tasks.list(.init()).isStale, hub.tasks.list(.init()).hasLoaded,
                    hub.tasks.count(.init())
                ),
                (hub.directives.pending.isStale, hub.directives.pending.hasLoaded, hub.directives.pending.items.count),
                (hub.listen.latest.isStale, hub.listen.latest.hasLoaded, hub.listen.latest.items.count),
            ]
        }
        #expect(states().allSatisfy { !$0.stale && $0.loaded && $0.count == 1 })
        hub.markAllStale()
        #expect(states().allSatisfy { $0.stale && $0.count == 1 })
        hub.forgetServer()
        #expect(states().allSatisfy { !$0.loaded && $0.count == 0 })
    }

    @Test func startUpReadsTheStandardListsAndNothingMoreForTheShippedPanes() {
        #expect(Set(PaneRegistry.startQueries) == Set(CacheBridge.standardQueries))
        #expect(PaneRegistry.startQueries.count == CacheBridge.standardQueries.count)
    }
}
