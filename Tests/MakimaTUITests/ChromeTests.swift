import Testing

@testable import MakimaTUI

@Suite("Masthead, NAV// strip, cards, badge")
struct ChromeTests {
    static let pills: [ConnectionPillState] = [
        .idle, .connecting, .online, .offline(secondsToRetry: 12), .offline(secondsToRetry: nil),
    ]

    func masthead(_ model: MastheadModel, width: Int, glyphs: Glyphs = .unicode) -> CellBuffer {
        var b = CellBuffer(width: width, height: 1)
        MastheadBar.render(model, into: &b, row: b.bounds, context: RenderContext(glyphs: glyphs))
        return b
    }

    @Test(
        "masthead at 60, 80, 120, 200: pill always whole, nothing cut mid-character",
        arguments: [60, 80, 120, 200])
    func mastheadWidths(width: Int) {
        for pill in Self.pills {
            for server in ["makima.jp", "契約サーバー.example.co.jp", "very-long-hostname.internal.example.com"] {
                let b = masthead(
                    MastheadModel(serverLabel: server, version: "0.1.0", pill: pill, clock: "14:05"), width: width)
                let line = b.line(0)
                #expect(b.isWellFormed, "\(width) \(server)")
                #expect(CellWidth.of(line) == width)
                #expect(line.contains(pill.label()), "\(width) \(pill)")
                // The pill is drawn in its role.
                let x = b.line(0).range(of: "WS//").map { CellWidth.of(String(line[..<$0.lowerBound])) }
                #expect(x.map { b.style(atX: $0, y: 0).fg } == pill.role)
            }
        }
    }

    @Test("masthead at 200 shows every part; narrower drops version before the server")
    func mastheadDropOrder() {
        let model = MastheadModel(
            serverLabel: "makima.jp", version: "0.1.0", pill: .offline(secondsToRetry: 12), clock: "14:05")
        let wide = masthead(model, width: 200).line(0)
        for part in ["◎", "MAKIMA", "WS//OFFLINE 12s", "makima.jp", "v0.1.0", "14:05"] { #expect(wide.contains(part)) }

        let long = MastheadModel(
            serverLabel: "prod-cluster-7.makima.example.com", version: "0.1.0", pill: .online, clock: "14:05")
        let at60 = masthead(long, width: 60).line(0)
        #expect(!at60.contains("v0.1.0"))
        #expect(at60.contains("MAKIMA"))
        #expect(at60.contains("WS//ONLINE"))
        #expect(at60.contains("prod-cluster"))

        let at30 = masthead(long, width: 30).line(0)
        #expect(at30.contains("WS//ONLINE"))
        #expect(!at30.contains("v0.1.0"))
        #expect(!at30.contains("◎"))

        let at12 = masthead(long, width: 12).line(0)
        #expect(at12 == " WS//ONLINE ")
    }

    @Test("the pill's labels and colours")
    func pillLabels() {
        #expect(ConnectionPillState.idle.label() == "WS//IDLE")
        #expect(ConnectionPillState.connecting.label() == "WS//…")
        #expect(ConnectionPillState.connecting.label(glyphs: .ascii) == "WS//...")
        #expect(ConnectionPillState.online.label() == "WS//ONLINE")
        #expect(ConnectionPillState.offline(secondsToRetry: 12).label() == "WS//OFFLINE 12s")
        #expect(ConnectionPillState.idle.role == .foregroundMuted)
        #expect(ConnectionPillState.connecting.role == .warn)
        #expect(ConnectionPillState.online.role == .ok)
        #expect(ConnectionPillState.offline(secondsToRetry: 3).role == .danger)
    }

    @Test("offline countdown: one state from the sync engine, the UI counts down to 0s")
    func countdown() {
        var c = PillCountdown()
        c.set(.offline(secondsToRetry: 12), now: 100)
        #expect(c.pill(at: 100) == .offline(secondsToRetry: 12))
        #expect(c.pill(at: 100.5) == .offline(secondsToRetry: 12))
        let next = c.nextChange(after: 100.5)!
        #expect(next > 101 && next < 101.01)
        #expect(c.pill(at: next) == .offline(secondsToRetry: 11))
        #expect(c.pill(at: 111.5) == .offline(secondsToRetry: 1))
        #expect(c.pill(at: 112) == .offline(secondsToRetry: 0))
        #expect(c.nextChange(after: 112) == nil)
        c.set(.connecting, now: 113)
        #expect(c.pill(at: 200) == .connecting)
        #expect(c.nextChange(after: 113) == nil)
        c.set(.offline(secondsToRetry: nil), now: 114)
        #expect(c.pill(at: 300) == .offline(secondsToRetry: nil))
    }

    @Test("NAV// strip: all panes with numbers, the current one in reverse video", arguments: [60, 80, 120, 200])
    func navStrip(width: Int) {
        var b = CellBuffer(width: width, height: 1)
        NavStrip.render(current: .tasks, into: &b, row: b.bounds, context: RenderContext())
        let line = b.line(0)
        #expect(line.hasPrefix(" NAV// │ 1 "))
        #expect(CellWidth.of(line) == width)
        for pane in PaneID.topLevel { #expect(line.contains("\(pane.number) "), "\(width) \(pane)") }
        #expect(line.contains("3 TASK"))
        let x = CellWidth.of(String(line[..<line.range(of: "3 TASK")!.lowerBound]))
        #expect(b.style(atX: x, y: 0).attributes.contains(.reverse))
        #expect(!b.style(atX: 2, y: 0).attributes.contains(.reverse))
        if width >= 80 { #expect(line.contains("7 SETTINGS")) }
        if width >= 120 { #expect(line.contains("1 HOME  2 CONTRACTS")) }
    }

    @Test("dashed card: exact lines")
    func dashedCard() {
        var b = CellBuffer(width: 30, height: 4)
        let inner = Card.render(
            into: &b, rect: b.bounds, title: "system", accessory: "M0 + M1", context: RenderContext())
        b.write("● Scaffold", x: inner.x, y: inner.y, style: .plain)
        b.write("READY", x: inner.maxX - 5, y: inner.y, style: .plain)
        #expect(
            b.lines == [
                "╭┄ SYSTEM// ┄┄┄┄┄┄┄ M0 + M1 ┄╮",
                "┆ ● Scaffold           READY ┆",
                "┆                            ┆",
                "╰" + String(repeating: "┄", count: 28) + "╯",
            ])
        #expect(inner == Rect(x: 2, y: 1, width: 26, height: 2))
        #expect(b.style(atX: 0, y: 0).fg == .borderMuted)
        #expect(b.style(atX: 3, y: 0).fg == .foregroundMuted)
    }

    @Test("dashed card: ASCII fallback and a title longer than the card")
    func asciiCard() {
        var b = CellBuffer(width: 16, height: 3)
        Card.render(
            into: &b, rect: b.bounds, title: "glossary", accessory: "too long to fit",
            context: RenderContext(glyphs: .ascii))
        #expect(
            b.lines == [
                "+- GLOSSARY// -+",
                "|              |",
                "+--------------+",
            ])
        var narrow = CellBuffer(width: 10, height: 2)
        Card.render(into: &narrow, rect: narrow.bounds, title: "directives", context: RenderContext())
        #expect(narrow.lines == ["╭┄ DIRE…┄╮", "╰┄┄┄┄┄┄┄┄╯"])
    }

    @Test("badge: 支配する · CONTROL SYSTEM on the panel colour")
    func badge() {
        let line = Badge.line(text: "支配する", subtitle: "CONTROL SYSTEM", context: RenderContext())
        #expect(line.text == " 支配する · CONTROL SYSTEM ")
        #expect(line.spans.allSatisfy { $0.style.bg == .panel })
        #expect(
            Badge.line(text: "支配する", subtitle: "CONTROL SYSTEM", context: RenderContext(glyphs: .ascii)).text
                == " CONTROL SYSTEM ")
    }

    @Test("braille logo: concentric rings, symmetric, brightest inside")
    func logo() {
        var b = CellBuffer(width: 14, height: 7)
        BrailleLogo.render(into: &b, rect: b.bounds, context: RenderContext())
        let cells = (0..<7).flatMap { y in (0..<14).map { x in b[x, y] } }
        #expect(
            cells.filter { $0.text != " " }.allSatisfy { ($0.text.unicodeScalars.first?.value ?? 0) & 0xFF00 == 0x2800 }
        )
        // Left-right mirror: a dot pattern and its mirror image occupy mirrored cells.
        for y in 0..<7 { for x in 0..<7 { #expect((b[x, y].text == " ") == (b[13 - x, y].text == " "), "\(x),\(y)") } }
        #expect(b.style(atX: 7, y: 3).fg == .accent)  // centre
        #expect(b.style(atX: 0, y: 3).fg == .borderMuted)  // outer ring
        #expect(Set(cells.map(\.style.fg)).isSuperset(of: [.accent, .foregroundMuted, .borderMuted]))
    }

    @Test("grid texture sits on a fixed lattice of the screen")
    func grid() {
        var b = CellBuffer(width: 20, height: 7)
        GridTexture.render(into: &b, rect: Rect(x: 1, y: 1, width: 19, height: 6), context: RenderContext())
        #expect(b.line(0) == String(repeating: " ", count: 20))
        #expect(b.line(3) == "      ·     ·     · ")
        #expect(b.style(atX: 6, y: 3).fg == .borderMuted)
    }
}
