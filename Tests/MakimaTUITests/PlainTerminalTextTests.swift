import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

/// What a terminal without UTF-8 or without colour is shown: a title's drawable half, and
/// emphasis that does not depend on a colour.
@Suite struct PlainTerminalTextTests {
    @Test func underAnASCIILocaleABilingualTitleShowsItsEnglishHalf() {
        let title = "翻訳ファイルの整理 · tidy localisation files"
        #expect(oneLine(title, asciiOnly: true) == "tidy localisation files")
        #expect(oneLine("契約レビュー · Contract review", asciiOnly: true) == "Contract review")
        #expect(oneLine(title, asciiOnly: false) == title, "a UTF-8 terminal draws both halves")
        // Without a drawable half the title is kept whole (each cell becomes `?` as before).
        #expect(oneLine("翻訳 · 整理", asciiOnly: true) == "翻訳 · 整理")
        #expect(AsciiFallback.drawableHalves("Build → ship · 出荷") == "Build → ship")
        #expect(AsciiFallback.drawableHalves("plain ASCII · two halves") == "plain ASCII · two halves")
    }

    @Test func withoutColourTheQuestionsWaitingBannerKeepsItsEmphasis() {
        let palette = ColorMapper.palette(for: .makima, capability: .none)
        // The banner's style on Home's DIRECTIVES card: text in the background's colour on warn.
        let banner = palette.resolve(CellStyle(fg: .background, bg: .warn, attributes: .bold))
        #expect(banner.attributes.contains(.reverse), "\(banner.attributes)")
        #expect(banner.attributes.contains(.bold))
        // A search match (no bold of its own) is told apart too; plain text is not reversed.
        #expect(palette.resolve(CellStyle(fg: .background, bg: .warn)).attributes.contains(.reverse))
        #expect(!palette.resolve(CellStyle(fg: .foreground)).attributes.contains(.reverse))
        // With colour nothing changes: the fill is the emphasis.
        let coloured = ColorMapper.palette(for: .makima, capability: .palette256)
        #expect(
            !coloured.resolve(CellStyle(fg: .background, bg: .warn, attributes: .bold)).attributes.contains(.reverse))
    }
}
