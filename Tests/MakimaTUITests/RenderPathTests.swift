import MakimaKit
import Testing

@testable import MakimaTUI

@Suite("Task output colours, colourless and ASCII terminals")
struct RenderPathTests {
    @Test("SGR in task output shows only as palette roles")
    func sgrToRoles() {
        let raw =
            "\u{1B}[1;31mFAILED\u{1B}[0m build \u{1B}[38;5;46mok\u{1B}[39m \u{1B}[38;2;255;200;0mwarn\u{1B}[0m \u{1B}[44;7mbadge\u{1B}[0m\n\u{1B}]0;title\u{07}next \u{1B}[34mline"
        let cleaned = UntrustedText.cleanKeepingSGR(raw)
        let lines = StyledTextBuilder.lines(cleaned)
        #expect(lines.map(\.text) == ["FAILED build ok warn badge", "next line"])
        let spans = lines[0].spans
        #expect(spans[0] == Span("FAILED", CellStyle(fg: .danger, attributes: .bold)))
        #expect(spans[1] == Span(" build ", CellStyle(fg: .body)))
        #expect(spans[2] == Span("ok", CellStyle(fg: .ok)))
        #expect(spans[4] == Span("warn", CellStyle(fg: .warn)))
        // Backgrounds from output are dropped; reverse is kept.
        #expect(spans[6] == Span("badge", CellStyle(fg: .body, attributes: .reverse)))
        #expect(lines[1].spans.last == Span("line", CellStyle(fg: .accent)))
        for line in lines { for span in line.spans { #expect(span.style.bg == nil) } }

        var b = CellBuffer(width: 40, height: 2)
        for (y, line) in lines.enumerated() { b.write(line, x: 0, y: y) }
        #expect(b.style(atX: 0, y: 0).fg == .danger)
        #expect(b.style(atX: 13, y: 0).fg == .ok)
        #expect(b.trimmedLine(1) == "next line")
    }

    @Test("the builder carries style and the open line across chunks")
    func chunks() {
        var builder = StyledTextBuilder()
        builder.append(UntrustedText.cleanKeepingSGR("\u{1B}[32mgre"))
        builder.append(UntrustedText.cleanKeepingSGR("en\nst"))
        builder.append(UntrustedText.cleanKeepingSGR("ill\u{1B}[0m plain\n"))
        #expect(builder.lines.map(\.text) == ["green", "still plain"])
        #expect(builder.lines[1].spans.first == Span("still", CellStyle(fg: .ok)))
        #expect(builder.current.spans.isEmpty)
        #expect(builder.style == CellStyle(fg: .body))
    }

    @Test("stray bytes that are not normalised SGR never reach a span")
    func strayEscapes() {
        let lines = StyledTextBuilder.lines("a\u{1B}[2Jb\u{1B}c\u{07}d\u{1B}[31")
        // The unfinished `ESC [31` at the end is a chunk cut inside a sequence: dropped whole.
        #expect(lines.map(\.text) == ["a[2Jbcd"])
        for span in lines[0].spans { #expect(!span.text.unicodeScalars.contains { $0.value < 0x20 }) }
    }

    @Test("without colour every cell resolves to attributes only, the current NAV item in reverse")
    func noColor() {
        var app = AppState(
            masthead: MastheadModel(
                serverLabel: "makima.jp", version: "0.1.0", pill: .offline(secondsToRetry: 3), clock: "12:00"))
        app.handle(.char("2"), now: 0)
        let b = app.render(width: 100, height: 30)
        let palette = ColorMapper.palette(for: .makima, capability: .none)
        for y in 0..<b.height {
            for x in 0..<b.width {
                let r = palette.resolve(b.style(atX: x, y: y))
                #expect(r.fg == nil && r.bg == nil)
            }
        }
        let nav = b.line(1)
        let x = CellWidth.of(String(nav[..<nav.range(of: "2 CONTRACTS")!.lowerBound]))
        #expect(palette.resolve(b.style(atX: x, y: 1)).attributes.contains(.reverse))
        #expect(!palette.resolve(b.style(atX: x - 3, y: 1)).attributes.contains(.reverse))
        #expect(b.line(0).contains("WS//OFFLINE 3s"))
        #expect(b.line(2).contains("CONTRACTS//"))
    }

    @Test("ASCII fallback: every cell has an ASCII look-alike")
    func asciiFallback() {
        for pane in ["1", "2"] {
            var app = AppState(
                masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .connecting, clock: "12:00"),
                glyphs: .ascii)
            app.handle(.char(Character(pane)), now: 0)
            app.handle(.char("?"), now: 0)
            let b = app.render(width: 120, height: 40)
            for y in 0..<b.height {
                for x in 0..<b.width where !b[x, y].isContinuation {
                    let shown = AsciiFallback.transliterate(b[x, y].text)
                    #expect(
                        shown.allSatisfy(\.isASCII) && (shown != "?" || b[x, y].text == "?"),
                        "\(x),\(y): \(b[x, y].text)")
                }
            }
            #expect(b.line(0).contains("@ MAKIMA"))
            #expect(b.line(0).contains("WS//..."))
        }
        var home = AppState(
            masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .idle, clock: ""), glyphs: .ascii)
        let lines = home.render(width: 120, height: 40).lines.joined(separator: "\n")
        #expect(lines.contains("+- GLOSSARY// "))
        #expect(lines.contains("| directives"))
    }
}
