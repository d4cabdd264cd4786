import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

@MainActor @Suite("Home's ACTIVITY// card and r")
struct HomeActivityRefreshTests {
    @Test("r on Home reads the activity counts again, not only at the next 30 s poll")
    func refreshReadsActivity() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.stepAfterActivityRead()
        #expect(h.shows("out · 1h"), "the card is read at start\n\(h.screen)")
        #expect(!h.shows("max 7"))
        let cache = try #require(h.live.cache)
        try cache.recordDaemonsOnline(7)
        h.type(.char("r"))
        h.stepAfterActivityRead()
        #expect(h.shows("max 7"), "\(h.screen)")
    }
}
