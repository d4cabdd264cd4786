import Testing

@testable import MakimaKit

/// The sanitiser's byte scan (`UntrustedText.isClean`) lets text through untouched; it must
/// never pass something the full cleaner would change.
@Suite("Sanitiser fast path")
struct SanitizerFastPathTests {
    @Test("every scalar: text the scan passes is text the cleaner leaves as it is")
    func scanNeverPassesWhatTheCleanerChanges() {
        var passedButChanged: [UInt32] = []
        var scalar: UInt32 = 0
        while scalar <= 0x10FFFF {
            if let v = Unicode.Scalar(scalar) {
                let text = "a\(Character(v))b\n"
                if UntrustedText.isClean(text) && UntrustedText.cleanKeepingSGR(text) != text {
                    passedButChanged.append(scalar)
                }
            }
            scalar += scalar < 0x3000 ? 1 : 97  // every scalar where controls live, then a sample
        }
        #expect(passedButChanged.isEmpty)
    }

    @Test("controls, escapes, C1, bidi marks and the BOM are caught by the scan")
    func scanCatchesEachKind() {
        for bad in [
            "\u{1B}[31m", "\t", "\r", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2067}", "\u{200F}",
            "\u{061C}", "\u{FEFF}", "\u{0}",
        ] {
            #expect(!UntrustedText.isClean("ok " + bad + " ok"), "\(bad.unicodeScalars.map(\.value))")
        }
    }

    @Test("plain text with newlines, accents, dashes, quotes and box drawing takes the fast path")
    func commonTextIsClean() {
        let text = "## Résumé — “quoted” • item\n│ box │ 漢字 ✓\n```swift\nlet x = 1\n```\n"
        #expect(UntrustedText.isClean(text))
        #expect(UntrustedText.cleanKeepingSGR(text) == text)
        // Ends cut in the middle of a multi-byte prefix: still scanned safely.
        #expect(UntrustedText.isClean("tail \u{2014}"))
    }
}
