import CNcursesShim
import MakimaKit
import Testing

@testable import MakimaTUI

/// The ncurses backend against real ncurses, on a `newterm` that writes to /dev/null: what
/// lands in curses' screen model is read back cell by cell.
@Suite("ncurses backend", .serialized)
struct NcursesBackendTests {
    struct ReadCell: Equatable {
        var text: String
        var pair: Int32
        var attrs: attr_t
    }

    @MainActor
    func readBack(_ x: Int, _ y: Int) -> ReadCell {
        var cch = cchar_t()
        mvwin_wch(mk_stdscr(), Int32(y), Int32(x), &cch)
        var chars = [wchar_t](repeating: 0, count: 8)
        var attrs: attr_t = 0
        var shortPair: Int16 = 0
        var pair: Int32 = 0
        getcchar(&cch, &chars, &attrs, &shortPair, &pair)
        let text = String(
            String.UnicodeScalarView(chars.prefix { $0 != 0 }.compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }))
        return ReadCell(text: text, pair: pair, attrs: attrs)
    }

    @MainActor
    @Test("cells, wide characters and extended colour pairs reach curses' screen")
    func flush() throws {
        // The drawing under test is the UTF-8 one, whatever locale this test process inherited.
        #expect(setlocale(LC_ALL, "C.UTF-8") != nil && TerminalLocale.isUTF8)
        let screen = try NcursesScreen(nullDeviceTerm: "xterm-256color", width: 40, height: 5)
        defer { screen.end() }
        #expect(screen.size.width == 40 && screen.size.height == 5)
        let palette = ColorMapper.palette(for: .makima, capability: .palette256)
        let backend = NcursesBackend(palette: palette, utf8: true)

        var frame = CellBuffer(width: 40, height: 5, style: CellStyle(fg: .body, bg: .background))
        frame.write("契約", x: 0, y: 0, style: CellStyle(fg: .accent, attributes: .bold))
        frame.write("WS//ONLINE", x: 5, y: 1, style: CellStyle(fg: .ok, bg: .panel, attributes: .reverse))
        backend.flush(frame)

        let wide = readBack(0, 0)
        #expect(wide.text == "契")
        #expect(readBack(2, 0).text == "約")
        #expect(wide.attrs & mk_a_bold() != 0)
        var fg: Int32 = 0
        var bg: Int32 = 0
        extended_pair_content(wide.pair, &fg, &bg)
        #expect(Int(fg) == palette.colorNumber(.accent))
        #expect(Int(bg) == palette.colorNumber(.background))

        let pill = readBack(5, 1)
        #expect(pill.text == "W")
        #expect(pill.attrs & mk_a_reverse() != 0)
        extended_pair_content(pill.pair, &fg, &bg)
        #expect(Int(fg) == palette.colorNumber(.ok))
        #expect(Int(bg) == palette.colorNumber(.panel))
        #expect(readBack(5, 0).pair == readBack(6, 0).pair)  // one pair per (fg, bg), reused

        // The next frame changes one cell; a narrow character replaces the wide one.
        frame.write("x", x: 0, y: 0, style: CellStyle(fg: .danger))
        backend.flush(frame)
        #expect(readBack(0, 0).text == "x")
        #expect(readBack(1, 0).text == " ")
        #expect(readBack(2, 0).text == "約")
    }

    @MainActor
    @Test("a blank takes the pair of the run it sits in when only its foreground differs")
    func blanksJoinTheRun() throws {
        #expect(setlocale(LC_ALL, "C.UTF-8") != nil && TerminalLocale.isUTF8)
        let screen = try NcursesScreen(nullDeviceTerm: "xterm-256color", width: 20, height: 2)
        defer { screen.end() }
        let palette = ColorMapper.palette(for: .makima, capability: .palette256)
        let backend = NcursesBackend(palette: palette, utf8: true)
        var frame = CellBuffer(width: 20, height: 2, style: CellStyle(fg: .body, bg: .background))
        frame.write("ab", x: 0, y: 0, style: CellStyle(fg: .accent))
        frame.write(" ", x: 2, y: 0, style: CellStyle(fg: .foregroundMuted))  // same background
        frame.write("c", x: 3, y: 0, style: CellStyle(fg: .accent))
        frame.write(" ", x: 4, y: 0, style: CellStyle(fg: .accent, bg: .panel))  // another background
        frame.write(" ", x: 5, y: 0, style: CellStyle(fg: .ok, attributes: .underline))  // its colour shows
        frame.write("d", x: 6, y: 0, style: CellStyle(fg: .danger))
        backend.flush(frame)

        #expect(readBack(2, 0).text == " ")
        #expect(readBack(2, 0).pair == readBack(1, 0).pair)  // no colour change for the blank
        var fg: Int32 = 0
        var bg: Int32 = 0
        extended_pair_content(readBack(4, 0).pair, &fg, &bg)
        #expect(Int(bg) == palette.colorNumber(.panel))
        extended_pair_content(readBack(5, 0).pair, &fg, &bg)
        #expect(Int(fg) == palette.colorNumber(.ok))
        #expect(readBack(5, 0).attrs & mk_a_underline() != 0)
        extended_pair_content(readBack(6, 0).pair, &fg, &bg)
        #expect(Int(fg) == palette.colorNumber(.danger))

        // Another theme, live: styles are resolved again with its colours.
        let other = ColorMapper.palette(for: .light, capability: .palette256)
        #expect(other.colorNumber(.background) != palette.colorNumber(.background))
        backend.setPalette(other)
        backend.flush(frame)
        extended_pair_content(readBack(0, 0).pair, &fg, &bg)
        #expect(Int(fg) == other.colorNumber(.accent))
        #expect(Int(bg) == other.colorNumber(.background))
    }
}
