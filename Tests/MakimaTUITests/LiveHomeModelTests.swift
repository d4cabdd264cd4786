import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

/// A hub filled the way the engine fills it: lists from the server or the cache, with times.
@MainActor
enum MeshFixture {
    static let now = Date(timeIntervalSince1970: 2_000_000_000)

    static let daemons = [
        Daemon(
            id: "d1", hostname: "kestrel.mesh.local", status: .online, lastHeartbeat: now.addingTimeInterval(-12),
            runningTasks: 2, maxConcurrentTasks: 4),
        Daemon(id: "d2", hostname: "osprey", status: .busy),
        Daemon(id: "d3", hostname: "falcon", status: .offline, lastHeartbeat: now.addingTimeInterval(-7200)),
    ]
    static let running = [
        MeshTask(id: "t1", title: "Add rate limiting", status: .running, updatedAt: now.addingTimeInterval(-60)),
        MeshTask(id: "t2", title: "決済APIのリトライ設計", status: .running, updatedAt: now.addingTimeInterval(-30)),
    ]
    static let contracts = [
        Contract(id: "c1", name: "Old one", phase: "review", status: .active, updatedAt: now.addingTimeInterval(-9000)),
        Contract(
            id: "c2", name: "決済フロー移行 · Payment flow migration", phase: "executing", status: .active,
            updatedAt: now.addingTimeInterval(-10)),
        Contract(id: "c3", name: "Done", phase: "done", status: .completed, updatedAt: now),
        Contract(id: "c4", name: "Middle", phase: "planning", status: .active, updatedAt: now.addingTimeInterval(-500)),
        Contract(
            id: "c5", name: "Oldest", phase: "planning", status: .active, updatedAt: now.addingTimeInterval(-99_000)),
    ]
    static let pending = [
        Directive(
            id: "r1", title: "週次レポートを準備", status: "active", hasPendingQuestion: true,
            pendingQuestion: SupervisorQuestion(id: "q1", text: "本番データに触れる前に確認させてください。", taskID: "t2"))
    ]
    static let listen = [
        ListenSession(
            id: "l1", title: "Live: release checklist", startedAt: now.addingTimeInterval(-3 * 3600),
            transcriptPreview: "A supervisor question\non migration 0042")
    ]

    /// Home's five lists, fetched `age` seconds before `now` (from the cache when `cached`).
    static func hub(age: TimeInterval = 0, cached: Bool = false) -> StoreHub {
        let hub = StoreHub()
        let at = now.addingTimeInterval(-age)
        hub.apply(.list(.daemons, .daemons(daemons), fetchedAt: at, fromCache: cached))
        hub.apply(.list(.tasks(status: .running, contractID: nil), .tasks(running), fetchedAt: at, fromCache: cached))
        hub.apply(.list(.contracts(status: nil), .contracts(contracts), fetchedAt: at, fromCache: cached))
        hub.apply(.list(.directives(pendingOnly: true), .directives(pending), fetchedAt: at, fromCache: cached))
        hub.apply(.list(.listenSessions(limit: 1), .listenSessions(listen), fetchedAt: at, fromCache: cached))
        return hub
    }
}

@MainActor @Suite("Live Home: view model from the stores")
struct LiveHomeModelTests {
    let now = MeshFixture.now

    @Test("counts, top contracts by recency, questions and the latest session come from the stores")
    func numbers() {
        let m = HomeMeshModel.from(MeshFixture.hub(), now: now)
        #expect(m.daemonsOnline == 2 && m.daemonsOffline == 1)
        #expect(m.offlineHosts == ["falcon"])
        #expect(m.runningCount == 2)
        #expect(m.recentTasks.map(\.id) == ["t2", "t1"])
        #expect(m.activeContractsCount == 4)
        // Every active contract, newest first (the layout shows as many as fit), with its id.
        #expect(m.topContracts.map(\.name) == ["決済フロー移行 · Payment flow migration", "Middle", "Old one", "Oldest"])
        #expect(m.topContracts.map(\.id) == ["c2", "c4", "c1", "c5"])
        #expect(
            m.pendingQuestions == [
                .init(directive: "週次レポートを準備", question: "本番データに触れる前に確認させてください。", directiveID: "r1")
            ])
        #expect(
            m.latestListen
                == .init(
                    title: "Live: release checklist", started: "started 3h ago",
                    preview: "A supervisor question on migration 0042", id: "l1"))
        #expect(m.daemonLines.map(\.id) == ["d3", "d1", "d2"], "offline daemons first")
        #expect([m.daemons, m.tasks, m.contracts, m.directives, m.listen].allSatisfy { $0 == .fresh })
        #expect(m.summary == nil)
    }

    @Test("data from the cache is marked STALE with its age until the server confirms it")
    func staleFromCache() {
        let hub = MeshFixture.hub(age: 240, cached: true)
        var m = HomeMeshModel.from(hub, now: now)
        #expect(m.daemons == .stale(age: "4m"))
        #expect(m.daemons.marker == "STALE 4m")
        #expect(m.daemonsOnline == 2)
        #expect(m.summary == NoticeLine("cached data from 4m ago; waiting for the server", level: .warn))
        hub.apply(.list(.daemons, .daemons(MeshFixture.daemons), fetchedAt: now, fromCache: false))
        m = HomeMeshModel.from(hub, now: now)
        #expect(m.daemons == .fresh)
        #expect(m.tasks == .stale(age: "4m"))
    }

    @Test("a failed refresh keeps the data, says how old it is and why")
    func errorsKeepData() {
        let hub = MeshFixture.hub(age: 90)
        hub.apply(.listFailed(.daemons, message: "cannot reach server"))
        let m = HomeMeshModel.from(hub, now: now)
        #expect(m.daemonsOnline == 2 && m.daemonsOffline == 1)
        #expect(m.daemons == .failed(age: "1m", message: "cannot reach server"))
        #expect(m.daemons.marker == "STALE 1m")
        #expect(
            m.summary
                == NoticeLine("showing data from 1m ago; the last refresh failed: cannot reach server", level: .warn))
    }

    @Test("nothing loaded: loading, then an error without data is said plainly")
    func nothingYet() {
        let hub = StoreHub()
        #expect(HomeMeshModel.from(hub, now: now).daemons == .unknown)
        hub.apply(.listLoading(.daemons))
        #expect(HomeMeshModel.from(hub, now: now).daemons.marker == "LOADING")
        hub.apply(.listFailed(.daemons, message: "HTTP 500"))
        let m = HomeMeshModel.from(hub, now: now)
        #expect(m.daemons.marker == "ERROR")
        #expect(m.summary == NoticeLine("cannot load from the server: HTTP 500", level: .danger))
    }

    @Test("a status event moves a task out of RUNNING on Home without a poll")
    func statusEvents() {
        let hub = MeshFixture.hub()
        hub.apply(
            .events([
                TaskEvent(
                    eventID: 9, taskID: "t1", seq: 1, type: .status,
                    payload: .status(status: .failed, previous: .running, reason: nil))
            ]))
        let m = HomeMeshModel.from(hub, now: now)
        #expect(m.runningCount == 1)
    }

    @Test("Home renders the numbers, the STALE marker and CJK text within its cards at 120×37 and 80×21")
    func renders() {
        var pane = HomePane(model: HomeViewModel(statusRows: [StatusRow("Network", "OFFLINE", .warn)]))
        pane.model.mesh = HomeMeshModel.from(MeshFixture.hub(age: 240, cached: true), now: now)
        for (w, h) in [(120, 37), (80, 21)] {
            var b = CellBuffer(width: w, height: h)
            pane.render(into: &b, region: b.bounds, context: RenderContext())
            let text = b.lines.joined(separator: "\n")
            #expect(b.isWellFormed)
            #expect(text.contains("2 ONLINE   ● 1 OFFLINE"), "\(w)×\(h)")
            #expect(text.contains("STALE 4m"), "\(w)×\(h)")
            #expect(text.contains("2 RUNNING"), "\(w)×\(h)")
            #expect(text.contains("? 1 QUESTION WAITING"), "\(w)×\(h)")
            // Card borders stand in the same cell columns on a CJK row as on an ASCII row.
            let cjk = b.lines.first { $0.contains("決済APIのリトライ設計") }!
            let ascii = b.lines.first { $0.contains("2 RUNNING") }!
            #expect(cjk.cellColumns(of: "┆").prefix(2) == ascii.cellColumns(of: "┆").prefix(2), "\(w)×\(h)")
            #expect(cjk.cellColumns(of: "┆").count >= 2)
        }
        var b = CellBuffer(width: 120, height: 37)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        let questionRow = b.lines.firstIndex { $0.contains("? 1 QUESTION WAITING") }!
        let x = b.lines[questionRow].distance(of: "?")
        #expect(b.style(atX: x, y: questionRow).bg == .warn)
        #expect(b.lines.contains { $0.contains("DAEMONS//") && $0.contains("STALE 4m") })
    }
}

extension String {
    /// Cells from the start of the line to the first `needle`.
    func distance(of needle: Character) -> Int {
        CellWidth.of(String(prefix { $0 != needle }))
    }

    /// The cell column of every `needle` in the line.
    func cellColumns(of needle: Character) -> [Int] {
        var columns: [Int] = []
        var x = 0
        for ch in self {
            if ch == needle { columns.append(x) }
            x += CellWidth.of(ch)
        }
        return columns
    }
}
