import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

/// The MESHES// card: its lines from the stores (the shown mesh from the other cards' stores,
/// the others from their last background read), drawn on Home with the other cards, Enter on
/// a line asking for the switch; the toasts naming a mesh; Settings › PROFILES.
@MainActor @Suite("MESHES// card and PROFILES")
struct MeshesCardTests {
    let now = MeshFixture.now

    func profile(_ name: String, key: Bool = true) -> MeshProfile {
        MeshProfile(profile: try! ServerProfile(label: name, server: "https://\(name).example"), keyStored: key)
    }

    /// The fixture's mesh shown as "prod"; staging answered 12 s ago, eu failing for 3 min.
    func hub() -> StoreHub {
        let hub = MeshFixture.hub()
        hub.meshes.profiles = [profile("prod"), profile("staging"), profile("eu"), profile("lab", key: false)]
        hub.meshes.show("prod")
        hub.meshes.answered(
            "staging",
            MeshGlance(
                running: 4, questions: 2, questionKeys: ["d/q": "x", "d/q2": "y"], failureTitles: ["t": "build"]),
            at: now.addingTimeInterval(-12))
        hub.meshes.failed("eu", "connection refused", at: now.addingTimeInterval(-180))
        hub.meshes.failed("eu", "connection refused", at: now.addingTimeInterval(-60))
        return hub
    }

    @Test("one line per profile: the shown one from the stores, the others from their last read")
    func lines() {
        let hub = hub()
        let m = HomeMeshModel.from(hub, now: now)
        #expect(m.meshes.map(\.name) == ["prod", "staging", "eu", "lab"])
        let prod = m.meshes[0]
        #expect(prod.shown && prod.running == MeshSummary(hub).runningTasks)
        #expect(prod.questions == MeshSummary(hub).pendingQuestions)
        #expect(
            m.meshes[1]
                == .init(
                    name: "staging", reachable: true, running: 4, failedLastHour: 1, questions: 2,
                    freshness: "12s ago"))
        // Unreachable since the first failure, not the last.
        #expect(m.meshes[2].reachable == false && m.meshes[2].freshness == "unreachable · 3m")
        #expect(m.meshes[3].freshness == "no key stored" && m.meshes[3].reachable == nil)
    }

    @Test("fewer than two profiles: no card")
    func noCard() {
        let hub = MeshFixture.hub()
        hub.meshes.profiles = [profile("prod")]
        #expect(HomeMeshModel.from(hub, now: now).meshes.isEmpty)
        var pane = HomePane()
        pane.model.mesh = HomeMeshModel.from(hub, now: now)
        var b = CellBuffer(width: 160, height: 60)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        #expect(!b.lines.contains { $0.contains("MESHES//") })
    }

    func home(_ hub: StoreHub, width: Int = 160, height: Int = 60) -> (HomePane, CellBuffer) {
        var pane = HomePane()
        pane.model.mesh = HomeMeshModel.from(hub, now: now)
        var b = CellBuffer(width: width, height: height)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        return (pane, b)
    }

    @Test("the card is drawn with the others; Tab reaches it and Enter on a line asks for that mesh")
    func enterSwitches() {
        var (pane, b) = home(hub())
        #expect(b.lines.contains { $0.contains("MESHES//") }, "\(b.lines.joined(separator: "\n"))")
        let staging = b.lines.first { $0.contains("● staging") }
        #expect(staging?.contains("4 run · 1 fail · 2 ?") == true, "\(staging ?? "no staging line")")
        #expect(staging?.contains("12s ago") == true)
        #expect(b.lines.contains { $0.contains("● eu") && $0.contains("unreachable · 3m") })
        #expect(b.lines.contains { $0.contains("● prod") && $0.contains("shown · ") })
        while pane.focus != .meshes { _ = pane.handle(.focusNext) }
        // The shown mesh is not a target: the first line Enter can switch to is staging.
        #expect(pane.selection[.meshes] == "staging")
        guard case .request(.switchProfile("staging")) = pane.handle(.open) else {
            Issue.record("Enter on staging's line asks for the switch")
            return
        }
        _ = pane.handle(.moveDown)
        guard case .request(.switchProfile("eu")) = pane.handle(.open) else {
            Issue.record("Enter on eu's line asks for the switch")
            return
        }
    }

    @Test("a figure not read yet is drawn …, never 0; one counted from a page of more is drawn N+")
    func partialLine() {
        let hub = hub()
        hub.meshes.answered("eu", MeshGlance(running: 50, atLeast: [.running]), at: now.addingTimeInterval(-5))
        let line = HomeMeshModel.from(hub, now: now).meshes[2]
        #expect(line.running == 50 && line.questions == nil && line.failedLastHour == nil)
        let (_, b) = home(hub)
        let eu = b.lines.first { $0.contains("● eu") } ?? "no eu line"
        #expect(eu.contains("50+ run · … fail · … ?"), "\(eu)")
        // The shown mesh keeps its line (it has no count of failures of its own).
        let prod = b.lines.first { $0.contains("● prod") } ?? "no prod line"
        #expect(!prod.contains("…") && !prod.contains("fail"), "\(prod)")
    }

    /// A hostile or broken mesh: figures at Int.max, ten thousand failures, an answer dated
    /// hours ahead of this machine (a skewed server), a failure dated 1970. Each line stays one
    /// line within the card, no age is negative, nothing overflows.
    @Test("a hostile mesh: absurd figures and dates keep each line bounded, no negative age")
    func hostileMesh() {
        let hub = hub()
        let failures = Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("t\($0)", "build \($0)") })
        hub.meshes.answered(
            "staging",
            MeshGlance(running: Int.max, questions: Int.max, failureTitles: failures, atLeast: [.running]),
            at: now.addingTimeInterval(3 * 3_600))
        hub.meshes.failed("eu", "connection refused", at: Date(timeIntervalSince1970: 0))
        let m = HomeMeshModel.from(hub, now: now)
        // Ahead of this machine is "0s ago", never a negative age; the first failure still counts.
        #expect(m.meshes.map(\.freshness) == ["0s ago", "0s ago", "unreachable · 3m", "no key stored"])
        let (_, b) = home(hub)
        let staging = b.lines.first { $0.contains("● staging") } ?? "no staging line"
        // Before: "9223372036854775807+ run · 1…", the rest of the line cut away.
        #expect(staging.contains("999M+ run · 10k fail · 999M+"), "\(staging)")
        #expect(staging.contains("0s ago"), "\(staging)")
        #expect(HomeCards.short(9_999, atLeast: false) == "9999" && HomeCards.short(12_345, atLeast: true) == "12k+")
        #expect(HomeCards.short(-5, atLeast: false) == "0" && HomeCards.short(2_500_000, atLeast: false) == "2M")
    }

    @Test("a click on a line selects it, as on the other cards")
    func click() {
        var (pane, _) = home(hub())
        guard case .handled = pane.handle(.select(.cardRow(card: HomeCardKind.meshes.rawValue, id: "eu"))) else {
            Issue.record("a click on eu's line is handled")
            return
        }
        #expect(pane.focus == .meshes && pane.selection[.meshes] == "eu")
    }

    @Test("narrow and short terminals: MESHES// gives way first, nothing overlaps")
    func narrow() {
        for (w, h) in [(60, 20), (80, 24), (100, 30), (120, 40), (200, 50)] {
            let region = Rect(x: 0, y: 0, width: w, height: h)
            let layout = HomeLayout.make(
                region: region, dataRows: [3, 4, 4, 5, 2, 4], extraRows: [6, 5], summaryLine: false)
            for (i, a) in layout.placed.enumerated() {
                #expect(a.rect.maxY <= region.maxY && a.rect.maxX <= region.maxX, "\(w)x\(h)")
                for b in layout.placed[(i + 1)...] {
                    let apart =
                        a.rect.maxX <= b.rect.x || b.rect.maxX <= a.rect.x || a.rect.maxY <= b.rect.y
                        || b.rect.maxY <= a.rect.y
                    #expect(apart, "\(w)x\(h): \(a) and \(b) overlap")
                }
            }
            let cards = Set(layout.placed.map(\.card))
            // Whatever is left out, the meshes card goes before the data cards of its column.
            if !cards.contains(2) || !cards.contains(3) { #expect(!cards.contains(5), "\(w)x\(h)") }
        }
        var (_, b) = home(hub(), width: 60, height: 20)
        #expect(b.lines.count == 20)
        (_, b) = home(hub(), width: 100, height: 50)
        #expect(b.lines.contains { $0.contains("MESHES//") })
    }

    @Test("Settings › PROFILES: each profile's server, key and whether it is shown; Enter switches")
    func settings() {
        #expect(SettingsAction(rowID: "profile.staging") == .switchProfile("staging"))
        #expect(SettingsAction.switchProfile("prod-eu").rowID == "profile.prod-eu")
        #expect(SettingsAction(rowID: "profile.") == nil)
        var facts = SettingsFacts(
            server: "https://prod.example", maskedKey: "mk_••••", keySource: "stored", cachePath: "/c", version: "1",
            connection: "ONLINE")
        facts.actions = true
        facts.profiles = [profile("prod"), profile("staging"), profile("lab", key: false)]
        facts.shownProfile = "prod"
        let rows = facts.model.rows
        let prod = rows.first { $0.id == "profile.prod" }?.line.text ?? ""
        #expect(prod.contains("https://prod.example") && prod.contains("key stored") && prod.contains("active"))
        let staging = rows.first { $0.id == "profile.staging" }?.line.text ?? ""
        #expect(staging.contains("Enter: switch"))
        let lab = rows.first { $0.id == "profile.lab" }?.line.text ?? ""
        #expect(lab.contains("no key stored") && lab.contains("makima-tui login --name lab"))
        #expect(facts.model.detail?.contains("PROFILES") == true)
    }
}

/// The controller's part: a background read's answer filed in `hub.meshes`, a toast naming the
/// mesh for what is new after its first read, and a failed read shown unreachable.
@MainActor @Suite("Meshes controller")
struct MeshesControllerTests {
    func reading(questions: [String]) -> MeshReading {
        let directives = questions.map {
            Directive(
                id: $0, title: "directive \($0)", status: "active", hasPendingQuestion: true,
                pendingQuestion: SupervisorQuestion(id: "q-" + $0, text: "?"))
        }
        return MeshReading(
            figure: .questions, lists: [(.directives(pendingOnly: true), .directives(directives))], readAt: Date())
    }

    func reading(failed: [MeshTask]) -> MeshReading {
        MeshReading(figure: .failures, failures: failed, readAt: Date())
    }

    @Test("the first read sets the baseline; a new question then a failure raise toasts naming the mesh")
    func toasts() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.live.hub.meshes.profiles = ["prod", "staging"].map {
            MeshProfile(profile: try! ServerProfile(label: $0, server: "https://" + $0 + ".example"), keyStored: true)
        }
        h.live.meshes.received(.init(name: "staging", outcome: .success(reading(questions: ["d1"]))))
        h.step()
        #expect(!h.shows("staging:"), "\(h.screen)")
        #expect(h.live.hub.meshes.readings["staging"]?.glance?.questions == 1)
        h.live.meshes.received(.init(name: "staging", outcome: .success(reading(questions: ["d1", "d2"]))))
        h.step()
        #expect(h.shows("staging: 1 new question"), "\(h.screen)")
        h.advance(6)
        // The failures' first read is their own baseline: the one already there is not said.
        let old = MeshTask(id: "f0", title: "old build", status: .failed)
        h.live.meshes.received(.init(name: "staging", outcome: .success(reading(failed: [old]))))
        h.step()
        #expect(!h.shows("old build"), "\(h.screen)")
        #expect(h.live.hub.meshes.readings["staging"]?.glance?.questions == 2)
        let failed = MeshTask(id: "f1", title: "nightly build", status: .failed)
        h.live.meshes.received(.init(name: "staging", outcome: .success(reading(failed: [old, failed]))))
        h.step()
        #expect(h.shows("staging: task failed: nightly build"), "\(h.screen)")
        h.live.meshes.received(.init(name: "prod", outcome: .failure(MeshReadFailure("connection refused"))))
        h.step()
        #expect(h.live.hub.meshes.readings["prod"]?.reachable == false)
    }
}
