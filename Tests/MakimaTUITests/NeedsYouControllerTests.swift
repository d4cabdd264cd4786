import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The needs-you list through the real controller on a memory terminal: what the operator
/// sees in the masthead and on Home, where `n` takes them, and `x` kept across a restart.
@MainActor @Suite("Needs you: the masthead count, NEEDS YOU//, n/N and x")
struct NeedsYouControllerTests {
    func seeded() throws -> ControllerHarness {
        let h = try ControllerHarness()
        NavigationControllerTests().seed(h)
        return h
    }

    @Test("the count is in the masthead and Home lists the items, oldest first")
    func countAndCard() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        #expect(h.shows("NEEDS YOU 2"), "\(h.screen)")
        #expect(h.shows("NEEDS YOU//"))
        let failed = try #require(h.terminal.backend.find("FAILED  Invoice export"))
        let question = try #require(h.terminal.backend.find("QUESTION  May I migrate"))
        #expect(failed.y < question.y, "the failure has a time, the question none: it comes first")
    }

    @Test("n opens the oldest, then the next; N goes back; x leaves the list and the count")
    func jumpAndAcknowledge() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        h.type(.char("N"))
        #expect(h.shows("DIRECTIVE Ship payments"), "N from nothing: the newest: \(h.screen)")
        h.type(.char("q"))
        h.type(.char("n"))
        #expect(h.shows("TASK Invoice export"), "n goes on from there, round to the oldest: \(h.screen)")
        h.type(.char("x"))
        #expect(h.shows("NEEDS YOU 1"), "\(h.screen)")
        h.type(.char("q"))
        #expect(!h.shows("FAILED  Invoice export"), "\(h.screen)")
        h.type(.char("n"))
        #expect(h.shows("DIRECTIVE Ship payments"), "the question's directive: \(h.screen)")
        h.type(.char("x"))
        #expect(!h.shows("NEEDS YOU"), "nothing waits: the masthead says nothing: \(h.screen)")
        h.type(.char("n"))
        // Toasts wait their turn (5 s each on the loop's clock): the two "done" come first.
        for _ in 0..<3 where !h.shows("nothing needs you") { h.advance(5.1) }
        #expect(h.shows("nothing needs you"), "\(h.screen)")
    }

    @Test("an acknowledgement is kept in the cache: a new dashboard on it shows the item gone")
    func keptAcrossRestart() throws {
        let h = try seeded()
        h.type(.char("n"), .char("x"))
        #expect(h.shows("NEEDS YOU 1"))
        let kept = try #require(h.live.cache).acknowledged()
        #expect(kept["failed:t2"] != nil)
        h.cleanUp()
        let fresh = NeedsYouStore()
        fresh.restore(acknowledged: kept)
        fresh.tasksListed([MeshTask(id: "t2", title: "Invoice export", status: .failed)], clock: .zero, now: Date())
        #expect(fresh.items.isEmpty)
    }

    @Test("on Home, Tab reaches NEEDS YOU// first; x on a selected line acknowledges that line")
    func acknowledgeOnHome() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        // Tab goes round the cards; a card reached by Tab starts on its first row.
        for _ in 0..<8 where !h.live.session.topPaneIs(focus: .needsYou) { h.type(.tab) }
        #expect(h.live.session.topPaneIs(focus: .needsYou))
        #expect(h.shows("▸ FAILED  Invoice export"), "\(h.screen)")
        h.type(.char("x"))
        #expect(h.shows("NEEDS YOU 1"))
        #expect(!h.shows("FAILED  Invoice export"))
        #expect(h.shows("▸ QUESTION  May I migrate"), "the selection moves to the next line: \(h.screen)")
    }
}

extension DashboardSession {
    /// Whether Home is on top with `focus` on that card (a test's view of the pane's state).
    func topPaneIs(focus: HomeCardKind) -> Bool { (topPane as? HomePane)?.focus == focus }
}
