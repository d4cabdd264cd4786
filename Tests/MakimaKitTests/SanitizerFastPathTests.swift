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

    @Test("the scan eight bytes at a time still finds a control, DEL or C1 at every offset of a long text")
    func wordScanFindsEveryOffset() {
        let plain = Array("the quick brown fox jumps over\nthe lazy dog".utf8)
        #expect(UntrustedText.isClean(String(decoding: plain, as: UTF8.self)))
        var missed: [String] = []
        let bad: [[UInt8]] = (0x00...0x1F).filter { $0 != 0x0A }.map { [UInt8($0)] } + [[0x7F], [0xC2, 0x85]]
        for b in bad {
            for offset in 0...plain.count {
                let text = String(decoding: plain[..<offset] + b + plain[offset...], as: UTF8.self)
                if UntrustedText.isClean(text) { missed.append("\(b) at \(offset)") }
            }
        }
        #expect(missed.isEmpty)
        // Accents and newlines at every offset stay on the fast path, unchanged.
        for offset in 0...plain.count {
            let text = String(decoding: plain[..<offset] + Array("é\n".utf8) + plain[offset...], as: UTF8.self)
            #expect(UntrustedText.isClean(text) && UntrustedText.cleanKeepingSGR(text) == text)
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
