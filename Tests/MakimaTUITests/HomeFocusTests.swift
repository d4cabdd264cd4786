import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

/// Home's focusable cards: keys move the focus and the selection; the focused card is drawn
/// in the accent; Enter opens the row or the card's pane.
@MainActor @Suite("Home focus")
struct HomeFocusTests {
    func home(width: Int = 120, height: Int = 40) -> (HomePane, CellBuffer) {
        var pane = HomePane()
        pane.model.mesh = HomeMeshModel.from(MeshFixture.hub(), now: MeshFixture.now)
        var b = CellBuffer(width: width, height: height)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        return (pane, b)
    }

    func redraw(_ pane: inout HomePane) -> CellBuffer {
        var b = CellBuffer(width: 120, height: 40)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        return b
    }

    @Test(
        "Tab, l and Shift-Tab, h cycle through the cards (NEEDS YOU first while anything waits); the focused one is bordered in the accent"
    )
    func cycle() {
        var (pane, b) = home()
        #expect(pane.focus == .daemons)
        let title = b.lines.firstIndex { $0.contains("5 DAEMONS//") }!
        #expect(b.style(atX: b.line(title).cells(before: "╭"), y: title).fg == .accent)
        var seen: [HomeCardKind] = []
        for _ in 0..<5 {
            _ = pane.handle(.focusNext)
            seen.append(pane.focus)
        }
        // NEEDS YOU// (the fixture has a question and a failure waiting) leads the order.
        #expect(seen == [.tasks, .contracts, .directives, .listen, .needsYou])
        _ = pane.handle(.focusPrevious)
        #expect(pane.focus == .listen)
        _ = pane.handle(.focusPrevious)
        #expect(pane.focus == .directives)
        b = redraw(&pane)
        let dir = b.lines.firstIndex { $0.contains("4 DIRECTIVES//") }!
        let daemons = b.lines.firstIndex { $0.contains("5 DAEMONS//") }!
        #expect(b.style(atX: b.line(dir).cells(before: "4 DIRECTIVES//"), y: dir).attributes.contains(.reverse))
        #expect(b.style(atX: b.line(daemons).cells(before: "╭"), y: daemons).fg == Card.borderStyle.fg)
    }

    @Test("a selected card row keeps its right column (the status), in reverse video")
    func selectedRowKeepsItsStatus() {
        var (pane, before) = home()
        let unselected = before.lines.first { $0.contains("Middle") }!
        let after = unselected[unselected.range(of: "Middle")!.upperBound...]
        let status = after.split(separator: " ").first.map(String.init)!
        #expect(status == "PLANNING")
        _ = pane.handle(.focusNext)
        _ = pane.handle(.focusNext)
        _ = pane.handle(.moveDown)
        let b = redraw(&pane)
        let y = b.lines.firstIndex { $0.contains("▸ Middle") }!
        #expect(b.lines[y].contains(status), "\(b.lines[y]) keeps \(status)")
        #expect(b.style(atX: b.line(y).cells(before: status), y: y).attributes.contains(.reverse))
    }

    @Test("a card reached by Tab starts on its first row; j/k move; above the first row Enter opens the card's pane")
    func rows() {
        var (pane, _) = home()
        _ = pane.handle(.focusNext)
        _ = pane.handle(.focusNext)
        #expect(pane.focus == .contracts)
        #expect(pane.selection[.contracts] == "c2")
        guard case .request(.openRow(.contracts, "c2")) = pane.handle(.open) else {
            Issue.record("Enter opens the selected contract")
            return
        }
        _ = pane.handle(.moveDown)
        #expect(pane.selection[.contracts] == "c4")
        let b = redraw(&pane)
        #expect(b.lines.contains { $0.contains("▸ Middle") })
        _ = pane.handle(.moveUp)
        _ = pane.handle(.moveUp)
        #expect(pane.selection[.contracts] == nil)
        guard case .open(.contracts) = pane.handle(.open) else {
            Issue.record("with no row selected Enter opens the Contracts pane")
            return
        }
        // The welcome screen (no server) has no cards to focus.
        var welcome = HomePane()
        guard case .ignored = welcome.handle(.focusNext) else {
            Issue.record("the welcome screen ignores Tab")
            return
        }
        #expect(welcome.keyContexts.isEmpty)
    }
}
