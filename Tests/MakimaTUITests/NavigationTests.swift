import Testing

@testable import MakimaTUI

@Suite("Command line, list view, pane stack")
struct NavigationTests {
    func app() -> AppState {
        AppState(masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .idle, clock: "12:00"))
    }

    func type(_ text: String, into a: inout AppState) {
        for c in text { a.handle(.char(c), now: 0) }
    }

    @Test("command line: :con + Tab completes to contracts, Enter jumps there")
    func completion() {
        var line = CommandLineState()
        for c in "con" { _ = line.apply(.insert(c)) }
        #expect(line.apply(.complete) == .editing)
        #expect(line.text == "contracts")
        #expect(line.apply(.submit) == .jump(.contracts))

        var a = app()
        a.handle(.char(":"), now: 0)
        type("con", into: &a)
        a.handle(.tab, now: 0)
        #expect(a.render(width: 80, height: 24).trimmedLine(23).hasPrefix(" :contracts"))
        a.handle(.enter, now: 0)
        #expect(a.commandLine == nil)
        #expect(a.stack.top.id == .contracts)
    }

    @Test("command line: an ambiguous prefix extends to the common part and lists the candidates")
    func ambiguous() {
        var line = CommandLineState(text: "d")
        _ = line.apply(.complete)
        #expect(line.text == "d")
        #expect(line.message == "directives daemons")
        #expect(CommandLineState.candidates(for: "DA") == ["daemons"])
        var two = CommandLineState(text: "d")
        #expect(two.apply(.submit) == .unknown("d"))
        #expect(two.message.hasPrefix("ambiguous"))
    }

    @Test("command line: unique prefixes, numbers and quit run without Tab; unknown names say so")
    func runs() {
        var l = CommandLineState(text: "li")
        #expect(l.apply(.submit) == .jump(.listen))
        l = CommandLineState(text: "4")
        #expect(l.apply(.submit) == .jump(.directives))
        l = CommandLineState(text: "q")
        #expect(l.apply(.submit) == .quit)
        l = CommandLineState(text: "zzz")
        #expect(l.apply(.submit) == .unknown("zzz"))
        #expect(l.message.contains("unknown pane"))
        l = CommandLineState()
        #expect(l.apply(.deleteBackward) == .cancelled)
    }

    @Test("typing in the command line does not trigger keys (q, g, digits are text)")
    func typingIsText() {
        var a = app()
        a.handle(.char(":"), now: 0)
        type("q2g", into: &a)
        #expect(!a.quitRequested)
        #expect(a.stack.top.id == .home)
        #expect(a.commandLine?.text == "q2g")
        #expect(!a.context.glossRevealed)
        a.handle(.escape, now: 0)
        #expect(a.commandLine == nil)
        a.handle(.ctrl("c"), now: 0)
        #expect(a.quitRequested)
    }

    static func rows(_ names: [String]) -> [ListRow] {
        names.enumerated().map { ListRow(id: "id\($0.offset)", line: StyledLine($0.element)) }
    }

    @Test("list view: moving, clamping, top and bottom, pages by the rendered height")
    func listMovement() {
        var list = ListView(rows: Self.rows((1...30).map { "row \($0)" }))
        list.moveUp()
        #expect(list.selection == 0)
        list.moveDown()
        list.moveDown()
        #expect(list.selectedRow?.id == "id2")
        list.moveToBottom()
        #expect(list.selection == 29)
        list.moveDown()
        #expect(list.selection == 29)
        list.moveToTop()
        var b = CellBuffer(width: 30, height: 10)
        list.render(into: &b, rect: b.bounds, context: RenderContext())
        #expect(list.pageSize == 10)
        list.pageDown()
        #expect(list.selection == 9)
        list.render(into: &b, rect: b.bounds, context: RenderContext())
        list.pageDown()
        #expect(list.selection == 18)
        list.render(into: &b, rect: b.bounds, context: RenderContext())
        #expect(b.trimmedLine(9) == "▸ row 19")
        #expect(list.scrollOffset == 9)
        #expect(b.style(atX: 2, y: 9).attributes.contains(.reverse))
        #expect(!b.style(atX: 2, y: 8).attributes.contains(.reverse))
    }

    @Test("list view: the / filter narrows the rows, keeps the selected row, Esc clears it")
    func listFilter() {
        var list = ListView(rows: Self.rows(["alpha build", "beta deploy", "gamma build", "delta test"]))
        list.moveDown()
        list.moveDown()
        #expect(list.selectedRow?.id == "id2")
        list.beginFilter()
        for c in "BUILD" { _ = list.editFilter(.insert(c)) }
        #expect(list.visibleRows.map(\.id) == ["id0", "id2"])
        #expect(list.selectedRow?.id == "id2")
        _ = list.editFilter(.submit)
        #expect(!list.isEditingFilter)
        var b = CellBuffer(width: 30, height: 5)
        list.render(into: &b, rect: b.bounds, context: RenderContext())
        #expect(b.trimmedLine(0) == "/BUILD                     2/4")
        #expect(b.trimmedLine(1) == "  alpha build")
        #expect(b.trimmedLine(2) == "▸ gamma build")
        let cleared = list.clearFilter()
        #expect(cleared)
        #expect(list.visibleRows.count == 4)
        #expect(list.selectedRow?.id == "id2")
        let again = list.clearFilter()
        #expect(!again)
    }

    @Test("list view: empty and no-match messages")
    func listMessages() {
        var empty = ListView(emptyMessage: "no data yet")
        var b = CellBuffer(width: 30, height: 3)
        empty.render(into: &b, rect: b.bounds, context: RenderContext())
        #expect(b.trimmedLine(0) == " no data yet")
        var list = ListView(rows: Self.rows(["one"]))
        list.beginFilter()
        _ = list.editFilter(.insert("z"))
        list.render(into: &b, rect: b.bounds, context: RenderContext())
        #expect(b.trimmedLine(1) == " no matches for “z”")
    }

    @Test("list pane through the app: / types a filter, q is text while typing, Esc clears")
    func listPaneKeys() {
        var a = app()
        a.handle(.char("3"), now: 0)
        a.stack.update(.tasks, as: ListPane.self) {
            $0.update(ListPaneViewModel(rows: Self.rows(["build api", "queue worker", "build web"])))
        }
        a.handle(.char("j"), now: 0)
        a.handle(.char("/"), now: 0)
        #expect(a.isTyping)
        type("qu", into: &a)
        #expect(!a.quitRequested)
        a.handle(.enter, now: 0)
        let screen = a.render(width: 80, height: 24)
        #expect(screen.trimmedLine(4).hasPrefix(" /qu"))
        #expect(screen.trimmedLine(5) == " ▸ queue worker")
        a.handle(.escape, now: 0)  // clears the filter, stays on the pane
        #expect(a.stack.top.id == .tasks)
        a.handle(.escape, now: 0)  // then Esc goes back
        #expect(a.stack.top.id == .home)
    }

    @Test("pane stack: a number key goes to its pane's root, q pops, q on Home asks Quit? y/n; Esc never quits")
    func stack() {
        var a = app()
        a.handle(.char("2"), now: 0)
        a.handle(.char("5"), now: 0)
        #expect(a.stack.ids == [.home, .daemons])  // the path from Home, not the history
        a.handle(.char("2"), now: 0)
        #expect(a.stack.ids == [.home, .contracts])
        a.handle(.char("q"), now: 0)
        #expect(a.stack.ids == [.home])
        a.handle(.escape, now: 0)
        #expect(!a.quitRequested)
        a.handle(.char("q"), now: 0)
        #expect(!a.quitRequested)
        #expect(a.quitPromptOpen)
        #expect(a.render(width: 80, height: 24).trimmedLine(23).contains("Quit? y/n"))
        a.handle(.char("n"), now: 0)
        #expect(!a.quitPromptOpen && !a.quitRequested)
        #expect(a.render(width: 80, height: 24).trimmedLine(23).contains("? help"))
        a.handle(.char("q"), now: 0)
        a.handle(.char("y"), now: 0)
        #expect(a.quitRequested)
        var c = app()
        c.handle(.char("q"), now: 0)
        c.handle(.ctrl("c"), now: 0)
        #expect(c.quitRequested, "Ctrl-C at the prompt quits too")
        var b = app()
        b.handle(.char("Q"), now: 0)
        #expect(b.quitRequested)
    }

    @Test("pane stack: a pane comes back with its selection after being left")
    func parked() {
        var a = app()
        a.handle(.char("3"), now: 0)
        a.stack.update(.tasks, as: ListPane.self) { $0.update(ListPaneViewModel(rows: Self.rows(["a", "b", "c"]))) }
        a.handle(.char("G"), now: 0)
        a.handle(.char("q"), now: 0)
        a.handle(.char("3"), now: 0)
        let pane = a.stack.top as? ListPane
        #expect(pane?.list.selectedRow?.id == "id2")
    }

    @Test("below 60×16 the screen asks to be made bigger; Q still quits")
    func tooSmall() {
        var a = app()
        let screen = a.render(width: 59, height: 16).lines.joined(separator: "\n")
        #expect(screen.contains("Make me bigger: I need 60×16 cells,"))
        #expect(screen.contains("this terminal is 59×16."))
        #expect(!screen.contains("NAV//"))
        #expect(a.render(width: 60, height: 16).lines.joined().contains("NAV//"))
        a.handle(.char("Q"), now: 0)
        #expect(a.quitRequested)
    }

    @Test(
        "every screen size renders well-formed, with the chrome in place",
        arguments: [(60, 16), (80, 24), (120, 40), (200, 50), (61, 17)])
    func sizes(size: (Int, Int)) {
        for pane in ["1", "2", "7"] {
            var a = app()
            a.handle(.char(Character(pane)), now: 0)
            let b = a.render(width: size.0, height: size.1)
            #expect(b.isWellFormed)
            #expect(b.line(0).contains("WS//IDLE"))
            #expect(b.line(1).contains("NAV//"))
            #expect(b.line(size.1 - 1).contains("? help"))
        }
    }
}
