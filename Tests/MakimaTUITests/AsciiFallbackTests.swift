import Foundation
import MakimaKit
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

    @Test func jsonIsEscapedNotReplaced() throws {
        let json = #"{"title":"契約 ĝ 😀","n":1}"#
        let escaped = AsciiFallback.jsonEscaped(json)
        #expect(escaped.utf8.allSatisfy { $0 < 0x80 })
        #expect(escaped == #"{"title":"\u5951\u7d04 \u011d \ud83d\ude00","n":1}"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: Any]
        #expect(decoded?["title"] as? String == "契約 ĝ 😀")
    }

    @Test func asciiIsLeftAlone() {
        let plain = "makima://task/t1\tTask failed\tdeploy\n"
        #expect(AsciiFallback.text(plain) == plain)
    }
}
