import Testing

@testable import MakimaTUI

@Suite("Cell widths")
struct CellWidthTests {
    @Test("one cell: ASCII, Latin with accents, box drawing, halfwidth katakana")
    func narrow() {
        for c: Character in ["a", "Z", "~", "é", "e\u{0301}", "┄", "╭", "ｱ", "◎", "·"] {
            #expect(CellWidth.of(c) == 1, "\(c)")
        }
    }

    @Test("two cells: CJK, kana, Hangul, fullwidth forms, emoji")
    func wide() {
        for c: Character in ["契", "約", "テ", "す", "한", "Ａ", "。", "😀", "👩‍💻", "🇯🇵", "⌚"] {
            #expect(CellWidth.of(c) == 2, "\(c)")
        }
    }

    @Test("VS16 asks for emoji presentation: two cells, as terminals draw it; without it, one")
    func variationSelector16() {
        #expect(CellWidth.of("\u{2764}\u{FE0F}" as Character) == 2)
        #expect(CellWidth.of("1\u{FE0F}\u{20E3}" as Character) == 2)
        #expect(CellWidth.of("\u{2764}" as Character) == 1)
        #expect(CellWidth.of("I \u{2764}\u{FE0F} it") == 7)
    }

    @Test("zero cells: controls, combining marks alone, ZWJ, format characters")
    func zero() {
        for s: Unicode.Scalar in [
            "\u{0}", "\u{1B}", "\u{7F}", "\u{9B}", "\u{0301}", "\u{200D}", "\u{200B}", "\u{FE0F}",
        ] {
            #expect(CellWidth.of(s) == 0, "U+\(String(s.value, radix: 16))")
        }
    }

    @Test("strings add up their clusters")
    func strings() {
        #expect(CellWidth.of("契約テスト") == 10)
        #expect(CellWidth.of("WS//ONLINE") == 10)
        #expect(CellWidth.of("支配する · CONTROL") == 8 + 3 + 7)
        #expect(CellWidth.of("") == 0)
    }

    @Test("the generated table is sorted and disjoint (binary search relies on it)")
    func tableSorted() {
        for table in [CellWidthTable.wide, CellWidthTable.zero] {
            for (a, b) in zip(table, table.dropFirst()) { #expect(a.upperBound < b.lowerBound) }
        }
    }
}
