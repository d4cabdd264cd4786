import Testing

@testable import MakimaTUI

@Suite("Cell buffer and truncation")
struct CellBufferTests {
    @Test("契約テスト truncated to 5 cells is 契約…")
    func cjkTruncation() {
        #expect(TextLayout.truncate("契約テスト", to: 5) == "契約…")
        #expect(TextLayout.truncate("契約テスト", to: 4) == "契…")
        #expect(TextLayout.truncate("契約テスト", to: 10) == "契約テスト")
        #expect(TextLayout.truncate("契約テスト", to: 1) == "…")
        #expect(TextLayout.truncate("契約テスト", to: 0) == "")
        for n in 0...11 { #expect(CellWidth.of(TextLayout.truncate("契約テスト", to: n)) <= n) }
    }

    @Test("padding counts cells, not characters")
    func padding() {
        #expect(TextLayout.pad("契約", to: 6) == "契約  ")
        #expect(CellWidth.of(TextLayout.pad("a契約b", to: 7)) == 7)
        #expect(TextLayout.pad("契約テスト", to: 5) == "契約…")
    }

    @Test("a wide character at the right edge becomes a space, never half drawn")
    func wideAtEdge() {
        var b = CellBuffer(width: 5, height: 1)
        let end = b.write("ab契約", x: 0, y: 0, style: .plain)
        #expect(b.line(0) == "ab契 ")
        #expect(end == 5)
        #expect(b[4, 0].text == " ")
        #expect(b.isWellFormed)

        var clipped = CellBuffer(width: 10, height: 1)
        clipped.write("契約", x: 0, y: 0, style: .plain, maxX: 3)
        #expect(clipped.line(0) == "契        ")
        #expect(clipped[2, 0].text == " ")
        #expect(clipped.isWellFormed)
    }

    @Test("writing over half of a wide character blanks the other half")
    func overwriteHalves() {
        var b = CellBuffer(width: 6, height: 1)
        b.write("契約テ", x: 0, y: 0, style: .plain)
        b.write("x", x: 1, y: 0, style: .plain)  // right half of 契
        #expect(b.line(0) == " x約テ")
        b.write("y", x: 2, y: 0, style: .plain)  // left half of 約
        #expect(b.line(0) == " xy テ")
        b.write("字", x: 3, y: 0, style: .plain)  // wide over a space and テ's left half
        #expect(b.line(0) == " xy字 ")
        #expect(b.isWellFormed)
    }

    @Test("random writes keep every wide character whole", arguments: [1, 2, 3, 4, 5])
    func fuzz(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        let pieces = ["a", "契約", "x契", "テスト", "😀", "e\u{0301}", "  ", "…"]
        var b = CellBuffer(width: 17, height: 3)
        for _ in 0..<500 {
            let text = pieces[Int(rng.next() % UInt64(pieces.count))]
            b.write(
                text, x: Int(rng.next() % 19) - 1, y: Int(rng.next() % 3), style: .plain, maxX: Int(rng.next() % 18))
            #expect(b.isWellFormed)
        }
    }

    @Test("a nil background keeps the background already painted")
    func transparentBackground() {
        var b = CellBuffer(width: 4, height: 1)
        b.fill(b.bounds, style: CellStyle(fg: .body, bg: .panel))
        b.write("ok", x: 0, y: 0, style: CellStyle(fg: .ok))
        #expect(b.style(atX: 0, y: 0) == CellStyle(fg: .ok, bg: .panel))
        b.write("!", x: 2, y: 0, style: CellStyle(fg: .warn, bg: .background))
        #expect(b.style(atX: 2, y: 0).bg == .background)
    }

    @Test("styled lines truncate across spans and keep each span's style")
    func styledTruncation() {
        var line = StyledLine("WS//", CellStyle(fg: .ok))
        line.append("契約テスト", CellStyle(fg: .accent))
        let cut = line.truncated(to: 9)
        #expect(cut.text == "WS//契約…")
        #expect(cut.spans.first?.style.fg == .ok)
        #expect(cut.width == 9)
    }

    @Test("word wrap counts cells and breaks over-long words")
    func wrap() {
        #expect(TextLayout.wrap("make me bigger please", to: 10) == ["make me", "bigger", "please"])
        #expect(TextLayout.wrap("契約テスト", to: 4) == ["契約", "テス", "ト"])
        #expect(TextLayout.wrap("a\nb", to: 4) == ["a", "b"])
    }

    @Test("printable ASCII is written one cell per byte, clipped like any other text")
    func asciiFastPath() {
        // Each case overflows, so a trailing "é" (which sends the text down the grapheme path)
        // is clipped away: both paths must leave the same cells and return the same column.
        let cases: [(x: Int, maxX: Int?, shown: String, end: Int)] = [
            (-3, nil, "lo, worl", 8), (0, 4, "hell    ", 4), (5, nil, "     hel", 8), (2, 7, "  hello ", 7),
        ]
        for c in cases {
            var ascii = CellBuffer(width: 8, height: 1)
            let asciiEnd = ascii.write("hello, world", x: c.x, y: 0, style: CellStyle(fg: .accent), maxX: c.maxX)
            var general = CellBuffer(width: 8, height: 1)
            let generalEnd = general.write("hello, worldé", x: c.x, y: 0, style: CellStyle(fg: .accent), maxX: c.maxX)
            #expect(ascii.line(0) == c.shown)
            #expect(asciiEnd == c.end)
            #expect(ascii == general)
            #expect(asciiEnd == generalEnd)
        }
        // A control byte is not printable ASCII: it takes no cell, as before.
        #expect(CellWidth.of("a\tb") == 2)
        #expect(CellWidth.of("abc") == 3)
        var b = CellBuffer(width: 4, height: 1)
        #expect(b.write("a\tb", x: 0, y: 0, style: .plain) == 2)
        #expect(b.line(0) == "ab  ")
    }
}

/// Deterministic generator for the fuzz test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
