import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

@MainActor @Suite("Home's ACTIVITY// card and r")
struct HomeActivityRefreshTests {
    /// Runs the loop until `text` is on screen (the card is read off the UI thread and posted
    /// back), its clock moved a frame only when there is a frame to draw: no timer (the 30 s
    /// poll that reads the card too) comes due while waiting. False after `seconds`.
    private func waitFor(_ text: String, _ h: ControllerHarness, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if h.loop.dirty { h.clock.now += EventLoop.frameInterval }
            _ = h.loop.step(now: h.clock.now)
            if h.shows(text) { return true }
            usleep(5_000)
        }
        return false
    }

    @Test("r on Home reads the activity counts again, not only at the next 30 s poll")
    func refreshReadsActivity() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        #expect(waitFor("out · 1h", h), "the card is read at start\n\(h.screen)")
        #expect(!h.shows("max 7"))
        let cache = try #require(h.live.cache)
        try cache.recordDaemonsOnline(7)
        h.type(.char("r"))
        #expect(waitFor("max 7", h), "\(h.screen)")
    }
}
