import Testing

@testable import MakimaTUI

/// What an 8-bit terminal is sent: ASCII only. The UTF-8 bytes of most characters include C1
/// controls there (`ĝ` is C4 9D, and 9D starts an OSC).
@Suite struct AsciiFallbackTests {
    @Test func textBecomesASCIIWithLookAlikesAndLineBreaksKept() {
        let shown = AsciiFallback.text("MK ●4/6 ▶3 — ĝ\u{9D}0;x\u{7}\nÛ2J 契約\r\n…")
        #expect(shown.utf8.allSatisfy { $0 < 0x80 })
        #expect(shown.hasPrefix("MK *4/6 >3 - ??0;x"))
        #expect(shown.split(separator: "\n").count == 3)
        #expect(shown.hasSuffix("\n~"))
    }

    @Test func asciiIsLeftAlone() {
        let plain = "makima://task/t1\tTask failed\tdeploy\n"
        #expect(AsciiFallback.text(plain) == plain)
    }
}
