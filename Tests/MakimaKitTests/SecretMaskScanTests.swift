import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// The pre-check's byte scan against the rule it implements, written the plain way: a run of
/// `k` visible ASCII characters, each pair of neighbours a pair of the secret, with spaces,
/// controls, non-ASCII bytes and SGR codes between them passed over.
@Suite struct SecretMaskScanTests {
    static let key = APIKey("mk_scan_test_key_5e9a07c3d1")!

    static func reference(_ text: String, secret: String, k: Int) -> Bool {
        let secret = Array(secret.utf8)
        var pairs = Set<[UInt8]>()
        for i in 1..<secret.count { pairs.insert([secret[i - 1], secret[i]]) }
        var run = 0
        var previous: UInt8?
        var inSGR = false
        for b in text.utf8 {
            if inSGR {
                if (0x30...0x39).contains(b) || b == 0x3B || b == 0x5B { continue }
                inSGR = false
                if b == 0x6D { continue }
            }
            if b == 0x1B {
                inSGR = true
                continue
            }
            if b <= 0x20 || b >= 0x7F { continue }
            if let p = previous, pairs.contains([p, b]) { run += 1 } else { run = 1 }
            previous = b
            if run >= k { return true }
        }
        return false
    }

    @Test func theScanFollowsTheRuleOnRandomText() {
        let secret = Self.key.secret
        let matcher = SecretMask.Matcher(secret: secret)
        let pieces =
            Array(secret).map(String.init) + [
                " ", "\n", "\u{1B}[31m", "\u{1B}[", "\u{1B}", "m", "é", "漢", "\u{200B}", "x", "Z", "\t", "\u{7F}",
                "0;1",
            ]
        var rng = SeededGenerator(state: 7)
        var found = 0
        for _ in 0..<20_000 {
            // Mostly the secret's own characters in order, so long runs happen.
            var text = ""
            var at = Int.random(in: 0..<secret.count, using: &rng)
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    text += pieces.randomElement(using: &rng)!
                } else {
                    text.append(Array(secret)[at % secret.count])
                    at += 1
                }
            }
            let expected = Self.reference(text, secret: secret, k: SecretMask.fragmentLength)
            #expect(matcher.mayHold(text) == expected, "\(text.debugDescription)")
            if expected { found += 1 }
        }
        #expect(found > 1_000)  // both answers were exercised
    }
}
