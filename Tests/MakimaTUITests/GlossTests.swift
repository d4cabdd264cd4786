import Testing

@testable import MakimaTUI

@Suite("Glosses: tap toggles, hold reveals while held")
struct GlossTests {
    @Test("a tap toggles the glosses at once; another tap later hides them")
    func tap() {
        var g = GlossReveal()
        #expect(!g.revealed)
        g.press(at: 10)
        #expect(g.revealed)
        g.settle(at: 12)
        #expect(g.revealed)
        g.press(at: 12)
        #expect(!g.revealed)
        #expect(g.nextDeadline == nil)
    }

    @Test("a hold (press, repeat delay, auto-repeat) reveals while held and hides after the stream stops")
    func hold() {
        var g = GlossReveal()
        g.press(at: 0)  // key down
        #expect(g.revealed)
        g.press(at: 0.5)  // first auto-repeat after the keyboard's delay
        #expect(g.revealed)
        var t = 0.5
        for _ in 0..<30 {  // ~1 s of repeats every 33 ms
            t += 0.033
            g.press(at: t)
            #expect(g.revealed)
            #expect(g.holding)
        }
        g.settle(at: t + 0.1)  // still within the release timeout
        #expect(g.revealed)
        #expect(g.nextDeadline.map { $0 > t + 0.15 } == true)
        g.settle(at: t + 0.2)  // repeats stopped: let go
        #expect(!g.revealed)
        #expect(!g.holding)
        #expect(g.nextDeadline == nil)
    }

    @Test("a hold that starts with the glosses pinned leaves them pinned")
    func holdWhilePinned() {
        var g = GlossReveal()
        g.press(at: 0)
        g.settle(at: 5)
        #expect(g.pinned)
        g.press(at: 10)
        g.press(at: 10.4)
        g.press(at: 10.43)
        g.press(at: 10.46)
        #expect(g.holding)
        g.settle(at: 11)
        #expect(g.revealed)
        #expect(g.pinned)
    }

    @Test("a quick double tap toggles twice: the second tap lands once no repeat follows")
    func doubleTap() {
        var g = GlossReveal()
        g.press(at: 0)
        #expect(g.revealed)
        g.press(at: 0.3)  // could be the first auto-repeat: wait
        #expect(g.revealed)
        #expect(g.nextDeadline != nil)
        g.settle(at: 0.5)  // nothing followed: it was a tap
        #expect(!g.revealed)
        #expect(!g.holding)
    }

    @Test("AppState: the glossary card shows the English only while revealed")
    func rendered() {
        var app = AppState(
            masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .idle, clock: "12:00"))
        let hidden = app.render(width: 120, height: 40).lines.joined(separator: "\n")
        #expect(hidden.contains("命令"))
        #expect(!hidden.contains("命令 directives"))
        #expect(!hidden.contains("contracts"))
        app.handle(.char("g"), now: 100)
        let shown = app.render(width: 120, height: 40).lines.joined(separator: "\n")
        for term in GlossTerm.glossary { #expect(shown.contains("\(term.japanese) \(term.english)")) }
        #expect(app.nextDeadline == nil)
        app.handle(.char("g"), now: 102)
        #expect(!app.render(width: 120, height: 40).lines.joined().contains("directives"))
    }

    @Test("AppState: holding g reveals, the loop's tick hides after release")
    func heldThroughApp() {
        var app = AppState(masthead: MastheadModel(serverLabel: "x", version: "0", pill: .idle, clock: ""))
        for t in [0.0, 0.5, 0.53, 0.56, 0.59] { app.handle(.char("g"), now: t) }
        #expect(app.context.glossRevealed)
        let deadline = app.nextDeadline
        #expect(deadline != nil)
        let changed = app.tick(now: deadline!)
        #expect(changed)
        #expect(!app.context.glossRevealed)
    }

    @Test("pane headers carry their term; ASCII terminals get the English instead")
    func glossText() {
        let hidden = GlossText.line(.contracts, context: RenderContext())
        #expect(hidden.text == "契約")
        let reserved = GlossText.line(.contracts, context: RenderContext(), reserve: true)
        #expect(reserved.width == GlossText.line(.contracts, context: RenderContext(glossRevealed: true)).width)
        #expect(GlossText.line(.contracts, context: RenderContext(glossRevealed: true)).text == "契約 contracts")
        #expect(GlossText.line(.listen, context: RenderContext(glyphs: .ascii)).text == "listen")
    }
}
