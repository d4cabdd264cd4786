import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// Mouse reports through the real decoder, loop and panes on a memory terminal: every click
/// does what its key does, on what the last frame showed.
@MainActor @Suite("Mouse: clicks, double clicks and the wheel on a memory terminal")
struct MouseControllerTests {
    func seeded() throws -> ControllerHarness {
        let h = try ControllerHarness()
        NavigationControllerTests().seed(h)
        return h
    }

    /// An SGR report for a press at the cell (x, y) counted from 0.
    static func press(_ x: Int, _ y: Int, button: Int = 0) -> String { "\u{1B}[<\(button);\(x + 1);\(y + 1)M" }
    static func release(_ x: Int, _ y: Int) -> String { "\u{1B}[<0;\(x + 1);\(y + 1)m" }
    static func click(_ x: Int, _ y: Int) -> String { press(x, y) + release(x, y) }

    func send(_ h: ControllerHarness, _ text: String) {
        h.terminal.send(Array(text.utf8))
        h.step()
    }

    func click(_ h: ControllerHarness, on text: String, under title: String? = nil) throws {
        let from = title.flatMap { h.terminal.backend.find($0)?.y } ?? 0
        let at = try #require(h.terminal.backend.find(text, from: from), "\(text) is not on screen: \(h.screen)")
        send(h, Self.click(at.x, at.y))
    }

    @Test("a click on a NAV// item opens that pane; the wheel moves a list's selection; clicks select and open rows")
    func navWheelAndRows() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        try click(h, on: "2 CONTRACTS")
        #expect(h.shows("CONTRACTS//"), "\(h.screen)")
        #expect(h.shows("▸ Mesh scheduler"), "\(h.screen)")
        let row = try #require(h.terminal.backend.find("Mesh scheduler"))
        send(h, Self.press(row.x, row.y + 2, button: 65))
        #expect(h.shows("▸ Billing"), "a wheel notch moves the selection one row: \(h.screen)")
        send(h, Self.press(row.x, row.y, button: 64))
        #expect(h.shows("▸ Mesh scheduler"), "\(h.screen)")
        // A click on another row selects it; a click on the selected row opens it (Enter).
        try click(h, on: "Billing")
        #expect(h.shows("▸ Billing"), "\(h.screen)")
        #expect(!h.shows("CONTRACT Billing"), "one click selects, it does not open: \(h.screen)")
        try click(h, on: "Billing")
        #expect(h.shows("NAV// │ HOME › CONTRACTS › CONTRACT Billing"), "\(h.screen)")
        // A click on a breadcrumb goes back to that pane.
        try click(h, on: "CONTRACTS ›")
        #expect(h.session.topPane.id == .contracts)
        #expect(h.session.topPane is ListPane, "\(h.screen)")
    }

    @Test("a double click (both clicks in one read, before any redraw) opens the row")
    func doubleClick() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        h.type(.char("2"))
        let billing = try #require(h.terminal.backend.find("Billing"))
        send(h, Self.click(billing.x, billing.y) + Self.click(billing.x, billing.y))
        #expect(h.shows("NAV// │ HOME › CONTRACTS › CONTRACT Billing"), "\(h.screen)")
    }

    @Test("Home: a click on a card focuses it, on a row selects it; again opens it")
    func homeCards() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        try click(h, on: "Billing")
        #expect(h.shows("▸ Billing"), "the row is selected in its focused card: \(h.screen)")
        try click(h, on: "Billing")
        #expect(h.shows("NAV// │ HOME › CONTRACT Billing"), "\(h.screen)")
    }

    @Test("Home: a click on a directive's question line selects the directive, as a click on its title does")
    func homeQuestionLine() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        try click(h, on: "May I migrate", under: "4 DIRECTIVES//")
        #expect(h.shows("▸ Ship payments"), "the directive is selected in its focused card: \(h.screen)")
        try click(h, on: "May I migrate", under: "4 DIRECTIVES//")
        #expect(h.shows("NAV// │ HOME › DIRECTIVE Ship payments"), "\(h.screen)")
    }

    @Test("reports outside the screen, malformed or cut short, right clicks and releases change nothing")
    func hostile() throws {
        let h = try seeded()
        defer { h.cleanUp() }
        let before = h.screen
        for bad in [
            Self.click(500, 3), Self.click(3, 4_000), "\u{1B}[<0;99999;1M", "\u{1B}[<0;;M", "\u{1B}[<0;3",
            Self.press(10, 1, button: 2), "\u{1B}[<0;12;2m",
            String(repeating: Self.press(1_000, 1_000, button: 65), count: 500),
        ] {
            send(h, bad)
        }
        #expect(h.screen == before, "\(h.screen)")
        #expect(h.session.topPane.id == .home)
    }

    @Test("the wheel scrolls the task output three lines a notch; up pauses following, as k does")
    func wheelInOutput() throws {
        let h = try TaskViewKeysTests().open(filler: 120)
        defer { h.cleanUp() }
        #expect(h.shows("log-119"), "\(h.screen)")
        send(h, Self.press(20, 10, button: 64))
        #expect(!h.shows("log-119"), "three lines up: \(h.screen)")
        #expect(h.shows("log-116"), "\(h.screen)")
        #expect(!h.shows("log-117"), "\(h.screen)")
        #expect(h.loop.app.stack.top.footerStatus?.contains("PAUSED") == true, "\(h.screen)")
    }

    @Test("a click on an output link opens it as :open N does")
    func outputLink() throws {
        let h = try TaskViewKeysTests().open()
        defer { h.cleanUp() }
        final class Seen { var urls: [String] = [] }
        let seen = Seen()
        let handler = h.session.onRequest
        h.session.onRequest = { r in
            if case .openURL(let url) = r { seen.urls.append(url) } else { handler?(r) }
        }
        try click(h, on: "guide")
        #expect(seen.urls == ["https://example.com/guide"], "\(h.screen)")
    }
}

/// The toast and help at the app level: what a click on them asks.
@MainActor @Suite("Mouse on the chrome: toast, help")
struct MouseChromeTests {
    @Test("a click on the toast asks for what it names (as o); a click in help closes it, the wheel scrolls it")
    func toastAndHelp() {
        var a = AppState(masthead: MastheadModel(serverLabel: "x", version: "0", pill: .idle, clock: "12:00"))
        a.toast = NoticeLine("Task failed: build", level: .danger)
        _ = a.render(width: 80, height: 24)
        _ = a.takeRequests()
        a.handle(MouseEvent(button: .left, x: 5, y: 22), now: 0)
        #expect(a.takeRequests() == [.openLatestNotification])
        a.handle(.char("?"), now: 0)
        _ = a.render(width: 80, height: 24)
        a.handle(MouseEvent(button: .wheelDown, x: 5, y: 10), now: 0)
        #expect(a.helpScroll == 3)
        a.handle(MouseEvent(button: .left, x: 5, y: 10), now: 0)
        #expect(!a.helpOpen)
    }
}
