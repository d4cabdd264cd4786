import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

@MainActor @Suite("Live list panes: view models from the stores")
struct LiveListModelTests {
    let now = MeshFixture.now

    func span(_ row: ListRow, _ text: String) -> Span? { row.line.spans.first { $0.text.contains(text) } }

    @Test("contracts: name, phase, status per row; the filter picks the list; CJK names keep the columns aligned")
    func contracts() {
        let hub = StoreHub()
        hub.apply(.list(.contracts(status: nil), .contracts(MeshFixture.contracts), fetchedAt: now, fromCache: false))
        let all = ListPaneModels.contracts(hub, status: nil, now: now)
        #expect(all.rows.count == 5)
        #expect(all.detail == "ALL · 5 contracts")
        let cjk = all.rows.first { $0.id == "c2" }!.line.text
        let ascii = all.rows.first { $0.id == "c1" }!.line.text
        // The phase column starts at the same cell in both rows (44 cells + 2 of gap).
        #expect(cjk.distance(of: "E") == 46 && ascii.distance(of: "R") == 46, "\(cjk) / \(ascii)")
        #expect(cjk.contains("EXECUTING") && cjk.contains("ACTIVE"))
        #expect(span(all.rows[0], "ACTIVE")?.style.fg == .accent)

        let active = ListPaneModels.contracts(hub, status: .active, now: now)
        #expect(active.rows.isEmpty)
        #expect(active.emptyMessage == "no data yet")
        hub.apply(.list(.contracts(status: .archived), .contracts([]), fetchedAt: now, fromCache: false))
        #expect(ListPaneModels.contracts(hub, status: .archived, now: now).emptyMessage == "no contracts")
    }

    @Test("f steps contracts through active, completed, archived, all; tasks through their statuses")
    func filters() {
        var contractFilter = PaneID.contracts.spec.filterCycle.first ?? nil
        var seen: [ContractStatus?] = []
        for _ in 0..<4 {
            let next = PaneRegistry.nextFilter(contractFilter, of: .contracts)
            let stepped = next != nil
            #expect(stepped)
            contractFilter = next ?? nil
            seen.append(contractFilter.map(ContractStatus.init(rawValue:)))
        }
        #expect(seen == [.active, .completed, .archived, nil])
        #expect(PaneID.contracts.spec.queries(contractFilter, nil) == [.contracts(status: nil)])
        let taskFilter = PaneRegistry.nextFilter(PaneID.tasks.spec.filterCycle.first ?? nil, of: .tasks) ?? nil
        #expect(PaneID.tasks.spec.queries(taskFilter, nil) == [.tasks(status: .running, contractID: nil)])
        #expect(PaneID.tasks.spec.queries(taskFilter, "c9") == [.tasks(status: .running, contractID: "c9")])
        #expect(PaneID.tasks.spec.filterCycle.contains("cancelled"))
        let daemonsHaveNone = PaneRegistry.nextFilter(nil, of: .daemons) == nil
        #expect(daemonsHaveNone)
        #expect(
            Set(PaneID.home.spec.queries(nil, nil)) == [
                .daemons, .tasks(status: .running, contractID: nil), .recentTasks(limit: 12),
                .directives(pendingOnly: true), .listenSessions(limit: 1), .contracts(status: nil),
                .listenSessions(limit: nil),
            ])
    }

    @Test("tasks: status colours — running accent, completed ok, failed danger, pending and queued muted")
    func taskColours() {
        let hub = StoreHub()
        let tasks = [TaskStatus.running, .completed, .failed, .pending, .queued].enumerated().map {
            MeshTask(
                id: "t\($0.offset)", title: "task \($0.offset)", status: $0.element,
                updatedAt: now.addingTimeInterval(-120))
        }
        hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks(tasks), fetchedAt: now, fromCache: false))
        let m = ListPaneModels.tasks(hub, status: nil, now: now)
        let roles = zip(m.rows, tasks).map { row, t in
            row.line.spans.first { $0.text == t.status.rawValue.uppercased() }?.style.fg
        }
        #expect(roles == [.accent, .ok, .danger, .foregroundMuted, .foregroundMuted])
        #expect(m.rows[0].line.text.hasSuffix("2m ago"))
    }

    @Test("directives: a pending question shows as a ? badge with its text, in the warn colour")
    func directives() {
        let hub = StoreHub()
        let list = MeshFixture.pending + [Directive(id: "r2", title: "Quiet one", status: "done")]
        hub.apply(.list(.directives(pendingOnly: false), .directives(list), fetchedAt: now, fromCache: false))
        let m = ListPaneModels.directives(hub, now: now)
        #expect(m.rows[0].line.text.hasSuffix("? 本番データに触れる前に確認させてください。"))
        #expect(span(m.rows[0], "? 本番")?.style.fg == .warn)
        #expect(!m.rows[1].line.text.contains("?"))
        #expect(m.detail == "1 WAITING · 2 directives")
    }

    @Test("daemons: host, status, heartbeat age, running/max")
    func daemons() {
        let hub = StoreHub()
        hub.apply(.list(.daemons, .daemons(MeshFixture.daemons), fetchedAt: now, fromCache: false))
        let m = ListPaneModels.daemons(hub, now: now)
        #expect(m.rows[0].line.text.contains("kestrel.mesh.local"))
        #expect(m.rows[0].line.text.contains("♥ 12s ago"))
        #expect(m.rows[0].line.text.contains("2/4"))
        #expect(m.rows[2].line.text.contains("♥ 2h ago"))
        #expect(span(m.rows[2], "OFFLINE")?.style.fg == .danger)
        #expect(m.detail == "2 ONLINE / 1 OFFLINE · 3 daemons")
    }

    @Test("listen: title, started, preview on one line")
    func listen() {
        let hub = StoreHub()
        hub.apply(
            .list(.listenSessions(limit: nil), .listenSessions(MeshFixture.listen), fetchedAt: now, fromCache: false))
        let text = ListPaneModels.listen(hub, now: now).rows[0].line.text
        #expect(text.hasPrefix("Live: release checklist"))
        #expect(text.contains("3h ago · live"))
        #expect(text.hasSuffix("A supervisor question on migration 0042"))
    }

    @Test("a failed refresh keeps the rows and puts STALE, the age and the error in the header")
    func staleAndErrors() {
        let hub = StoreHub()
        hub.apply(
            .list(.daemons, .daemons(MeshFixture.daemons), fetchedAt: now.addingTimeInterval(-300), fromCache: true))
        var m = ListPaneModels.daemons(hub, now: now)
        #expect(m.detail == "2 ONLINE / 1 OFFLINE · 3 daemons · STALE 5m")
        hub.apply(.listFailed(.daemons, message: "HTTP 502: bad gateway"))
        m = ListPaneModels.daemons(hub, now: now)
        #expect(m.rows.count == 3)
        #expect(m.detail == "2 ONLINE / 1 OFFLINE · 3 daemons · STALE 5m · HTTP 502: bad gateway")
        let empty = StoreHub()
        empty.apply(.listLoading(.listenSessions(limit: nil)))
        #expect(ListPaneModels.listen(empty, now: now).emptyMessage == "loading…")
        empty.apply(.listFailed(.listenSessions(limit: nil), message: "cannot reach server"))
        #expect(ListPaneModels.listen(empty, now: now).emptyMessage == "could not load: cannot reach server")
    }

    @Test("settings: the key only masked, the cache path, the counters")
    func settings() {
        let key = APIKey("mk_secret_value_4242")!
        var counters = StreamCounters()
        counters.eventsApplied = 1234
        counters.duplicatesDropped = 7
        let facts = SettingsFacts(
            server: "http://127.0.0.1:8787", maskedKey: key.masked, keySource: "stored",
            cachePath: "/tmp/c/cache.sqlite", version: "0.1.0", connection: "ONLINE",
            counters: counters, connectionsOpened: 3)
        let text = facts.model.rows.map(\.line.text).joined(separator: "\n")
        #expect(!text.contains(key.secret))
        #expect(text.contains("mk_…4242 (stored)"))
        #expect(text.contains("/tmp/c/cache.sqlite"))
        #expect(facts.model.rows.first { $0.id == "events applied" }?.line.text.hasSuffix("1234") == true)
        #expect(facts.model.rows.first { $0.id == "duplicates dropped" }?.line.text.hasSuffix("7") == true)
        #expect(facts.model.rows.first { $0.id == "reconnects" }?.line.text.hasSuffix("2") == true)
    }
}
