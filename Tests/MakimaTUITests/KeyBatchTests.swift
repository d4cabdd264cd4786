import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// Keys that arrive in one read (fast typing, a paste, `tmux send-keys`) are each handled by
/// the pane on top when their turn comes, as if typed one by one.
@MainActor @Suite("Keys read together go to the pane on top at their turn")
struct KeyBatchTests {
    /// Home, with two contracts (Mesh scheduler first, Billing second) in the stores.
    func seeded() throws -> ControllerHarness {
        let h = try ControllerHarness()
        NavigationControllerTests().seed(h)
        return h
    }

    @Test("`2 j` in one read: Contracts comes up and `j` moves down its list")
    func jumpThenMove() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        h.type(.char("2"), .char("j"))
        #expect(h.shows("CONTRACTS//"), "\(h.screen)")
        #expect(h.shows("▸ Billing"), "j moved down the Contracts list: \(h.screen)")
        // Typed one by one it is the same.
        let slow = try seeded()
        defer { slow.cleanUp() }
        slow.type(.char("2"))
        slow.type(.char("j"))
        #expect(slow.shows("▸ Billing"), "\(slow.screen)")
    }

    @Test("`2 j Enter` then `Esc k`, each in one read: the detail of the row j chose opens, Esc closes it, k moves up")
    func openRowThenBack() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        h.type(.char("2"), .char("j"), .enter)
        #expect(h.shows("NAV// │ HOME › CONTRACTS › CONTRACT Billing"), "Enter opened the row j selected: \(h.screen)")
        h.type(.escape, .char("k"))
        #expect(h.session.topPane is ListPane, "Esc closed the detail, not the Contracts pane")
        #expect(h.session.topPane.id == .contracts)
        #expect(h.shows("▸ Mesh scheduler"), "k went to the list: \(h.screen)")
    }

    @Test("`:con` Enter, then `j` Enter in the same read: the command line jumps, the list takes the rest")
    func commandLineThenList() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        h.type(.char(":"), .char("c"), .char("o"), .char("n"), .enter, .char("j"), .enter)
        #expect(h.shows("NAV// │ HOME › CONTRACTS › CONTRACT Billing"), "\(h.screen)")
    }

    @Test("`2 / Bi Enter Enter` in one read: the filter narrows the Contracts list and Enter opens what it kept")
    func filterThenOpen() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        h.type(.char("2"), .char("/"), .char("B"), .char("i"), .enter, .enter)
        #expect(h.shows("NAV// │ HOME › CONTRACTS › CONTRACT Billing"), "\(h.screen)")
    }
}
