import CNcursesShim
import Foundation
import MakimaKit
import Testing

@_spi(Fuzzing) @testable import MakimaTUI

/// OSC 8 hyperlinks: the URL as it may travel, the bytes around a link's cells (with made-up
/// codes, then with the ones ncurses gives for xterm), which cells are linked, and when the
/// terminal is trusted with them.
@Suite("OSC 8 hyperlinks", .serialized)
struct HyperlinkTests {
    @Test("URLs: web only (what :open opens), controls refused, non-ASCII percent-encoded, length bounded")
    func clean() {
        #expect(Hyperlink.clean("https://example.com/a?b=c;d#e") == "https://example.com/a?b=c;d#e")
        #expect(Hyperlink.clean("https://example.com/契約") == "https://example.com/%E5%A5%91%E7%B4%84")
        for refused in [
            "mailto:ops@example.com", "javascript:alert(1)", "file:///etc/passwd", "ftp://example.com", "",
            "example.com",
            "https://example.com/\u{1B}\\\u{1B}]8;;https://evil.example\u{1B}\\",  // an ST inside
            "https://example.com/\u{07}", "https://example.com/a b", "https://example.com/\u{7F}",
        ] {
            #expect(Hyperlink.clean(refused) == nil, "\(refused.debugDescription)")
        }
        // A C1 control (U+009C is ST in 8-bit form) only travels percent-encoded.
        let c1 = Hyperlink.clean("https://example.com/\u{9C}\u{9B}")
        #expect(c1 == "https://example.com/%C2%9C%C2%9B")
        #expect(c1?.utf8.allSatisfy { (0x21...0x7E).contains($0) } == true)
        let room = Hyperlink.maximumURLBytes - "https://e.x/".utf8.count
        #expect(Hyperlink.clean("https://e.x/" + String(repeating: "a", count: room))?.utf8.count == 2048)
        #expect(Hyperlink.clean("https://e.x/" + String(repeating: "a", count: room + 1)) == nil)
        #expect(Hyperlink.clean("https://e.x/" + String(repeating: "é", count: 700)) == nil)  // 4,200 bytes encoded
    }

    func codes() -> Hyperlink.Codes {
        Hyperlink.Codes(
            save: Array("<save>".utf8), restore: Array("<restore>".utf8),
            move: { x, y in Array("<at \(x),\(y)>".utf8) },
            style: { s in Array("<\(s.attributes.contains(.bold) ? "bold" : "plain")>".utf8) },
            reset: { Array("<reset>".utf8) }, text: { $0.text })
    }

    @Test("bytes: save, per run move + OSC 8 open + styled cells + close, restore, reset")
    func byteLayout() {
        var link = CellStyle(fg: .accent, attributes: .underline)
        link.link = 3
        var bold = link
        bold.attributes.insert(.bold)
        var buffer = CellBuffer(width: 12, height: 2)
        buffer.write("ab", x: 2, y: 0, style: link)
        buffer.write("c", x: 4, y: 0, style: bold)
        buffer.write("契", x: 0, y: 1, style: link)
        buffer.write("z", x: 5, y: 1, style: .plain)
        buffer.hyperlinks = ["https://a.example/1", "https://a.example/2", "https://a.example/3"]
        let runs = Hyperlink.runs(in: buffer)
        #expect(runs.map(\.x) == [2, 0] && runs.map(\.y) == [0, 1])
        let text = String(decoding: Hyperlink.bytes(runs, codes: codes()), as: UTF8.self)
        let open = "\u{1B}]8;id=makima-3;https://a.example/3\u{1B}\\"
        let close = "\u{1B}]8;;\u{1B}\\"
        #expect(
            text
                == "<save><at 2,0>\(open)<plain>ab<bold>c\(close)<at 0,1>\(open)<plain>契\(close)<restore><reset>")
        #expect(Hyperlink.bytes([], codes: codes()).isEmpty)
    }

    @Test("cells: a link with no URL, a refused URL or a number past the table is not linked")
    func unlinked() {
        var style = CellStyle()
        var buffer = CellBuffer(width: 10, height: 3)
        for (y, n) in [(0, 1), (1, 2), (2, 9)] {
            style.link = UInt32(n)
            buffer.write("link", x: 0, y: y, style: style)
        }
        #expect(Hyperlink.runs(in: buffer).isEmpty)  // no table: nothing linked
        buffer.hyperlinks = ["https://ok.example", "javascript:alert(1)"]
        let runs = Hyperlink.runs(in: buffer)
        #expect(runs.count == 1 && runs.first?.url == "https://ok.example" && runs.first?.y == 0)
    }

    @MainActor
    @Test("the task view links a markdown link's text and its reference line, not the plan's")
    func taskView() {
        let lines = MarkdownFixture.lines([
            MarkdownFixture.output(1, "See [the notes](https://example.com/notes) now.\n\nnext\n\n")
        ])
        var model = TaskOutputViewModel(taskID: "t", title: "links", lines: lines)
        model.links = ["https://example.com/notes"]
        model.plan = TaskPlan.render("plan [elsewhere](https://plan.example)", glyphs: .unicode)
        var pane = TaskOutputPane(model: model)
        _ = pane.handle(.togglePlan)
        var buffer = CellBuffer(width: 80, height: 20)
        pane.render(into: &buffer, region: buffer.bounds, context: RenderContext(glyphs: .unicode))
        let runs = Hyperlink.runs(in: buffer)
        #expect(runs.map { $0.cells.map(\.text).joined() } == ["the notes", "https://example.com/notes"])
        #expect(runs.allSatisfy { $0.url == "https://example.com/notes" && $0.number == 1 })
        #expect(buffer.lines.contains { $0.contains("elsewhere") })  // the plan is drawn, unlinked
    }

    @MainActor
    @Test("with xterm's terminfo: DECSC/DECRC, CUP, the cells' SGR through ncurses, back to normal")
    func ncursesCodes() throws {
        #expect(setlocale(LC_ALL, "C.UTF-8") != nil && TerminalLocale.isUTF8)
        let screen = try NcursesScreen(nullDeviceTerm: "xterm-256color", width: 40, height: 5)
        defer { screen.end() }
        let palette = ColorMapper.palette(for: .makima, capability: .palette256)
        let backend = NcursesBackend(palette: palette, utf8: true)
        var frame = CellBuffer(width: 40, height: 5)
        var link = CellStyle(fg: .accent, attributes: .underline)
        link.link = 1
        frame.write("docs", x: 4, y: 2, style: link)
        frame.hyperlinks = ["https://example.com/docs"]
        backend.flush(frame)  // curses draws first: the codes start from what it left
        let codes = try #require(
            NcursesBackend.hyperlinkCodes(utf8: true) { _ in (mk_a_underline(), 0) })
        #expect(codes.save == Array("\u{1B}7".utf8))
        #expect(codes.restore == Array("\u{1B}8".utf8))
        #expect(codes.move(4, 2) == Array("\u{1B}[3;5H".utf8))
        let text = String(decoding: Hyperlink.bytes(Hyperlink.runs(in: frame), codes: codes), as: UTF8.self)
        let head = "\u{1B}7\u{1B}[3;5H\u{1B}]8;id=makima-1;https://example.com/docs\u{1B}\\"
        let tail = "docs\u{1B}]8;;\u{1B}\\\u{1B}8"
        #expect(text.hasPrefix(head))
        let parts = text.dropFirst(head.count).components(separatedBy: tail)
        #expect(parts.count == 2)
        // Between the open and the text: ncurses' own underline on (`smul` or `sgr`); after
        // the restore: its way back to normal attributes.
        let on = parts.first ?? ""
        let off = parts.last ?? ""
        #expect(on.hasPrefix("\u{1B}") && on.hasSuffix("m") && on.contains("4"))
        #expect(off.hasPrefix("\u{1B}") && off.hasSuffix("m"))
    }

    @Test("detection: the override, tmux from 3.4, known terminals; unknown is off")
    func detection() {
        func on(_ env: [String: String]) -> Bool { HyperlinkSupport.detect(environment: env) }
        #expect(!on(["TERM": "xterm-256color"]))
        #expect(!on([:]))
        #expect(on(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]))
        #expect(on(["TERM": "xterm-kitty"]))
        #expect(on(["TERM": "xterm-256color", "VTE_VERSION": "7600"]))
        #expect(!on(["TERM": "xterm-256color", "VTE_VERSION": "4800"]))
        let tmux = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1/default,1,0", "TERM_PROGRAM": "tmux"]
        #expect(!on(tmux.merging(["TERM_PROGRAM_VERSION": "3.3a"]) { $1 }))
        #expect(on(tmux.merging(["TERM_PROGRAM_VERSION": "3.4"]) { $1 }))
        #expect(on(tmux.merging(["TERM_PROGRAM_VERSION": "next-3.5"]) { $1 }))
        #expect(!on(tmux))  // version unknown
        // Inside tmux the outer terminal's variables say nothing about tmux.
        #expect(!on(["TERM": "screen-256color", "TMUX": "x", "VTE_VERSION": "7600"]))
        #expect(!on(["TERM": "screen", "STY": "1.pts"]))
        #expect(!on(["TERM": "xterm-kitty", "MAKIMA_HYPERLINKS": "0"]))
        #expect(on(["TERM": "xterm-256color", "MAKIMA_HYPERLINKS": "1"]))
        #expect(!on(["TERM": "dumb", "TERM_PROGRAM": "iTerm.app"]))
    }
}
