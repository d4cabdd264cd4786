import Foundation
import Testing

@testable import MakimaKit

/// Copies of the key split by anything a terminal draws as nothing are still copies; ordinary
/// text around a copy, and text with no copy, comes back unchanged.
@Suite struct SecretMaskInvisibleTests {
    static let key = APIKey("mk_invisible_test_key_8c41f0d2a7")!
    static var secret: String { key.secret }

    /// `secret` cut into pieces of `size` characters joined by `glue`.
    static func split(_ secret: String, every size: Int, with glue: String) -> String {
        var out = ""
        for (i, c) in secret.enumerated() {
            if i > 0 && i % size == 0 { out += glue }
            out.append(c)
        }
        return out
    }

    /// Zero-width characters outside the format category (U+180B, U+17B4), other default
    /// ignorables, a combining mark, the braille blank, line breaks, spaces and controls.
    @Test(arguments: [
        "\u{180B}", "\u{17B4}", "\u{17B5}", "\u{115F}", "\u{3164}", "\u{0301}", "\u{20DD}", "\u{2800}", "\n",
        "\r\n", " ", "\u{3000}", "\u{00A0}", "\t", "\u{7}", "\u{85}", "\u{2028}", "\u{1B}[31m",
    ])
    func aCopyCutIntoShortPiecesByInvisiblesIsMasked(glue: String) {
        for size in [1, 3, 11] {
            let text = "bad key \(Self.split(Self.secret, every: size, with: glue)) sent"
            let masked = SecretMask.mask(text, secret: Self.secret, with: Self.key.masked)
            #expect(
                masked == "bad key \(Self.key.masked) sent", "glue \(glue.unicodeScalars.map(\.value)) size \(size)")
        }
    }

    @Test func combiningMarksOnEveryCharacterAreMasked() {
        let marked = Self.secret.unicodeScalars.map { String($0) + "\u{0336}\u{0489}" }.joined()
        #expect(SecretMask.mask("x \(marked) y", secret: Self.secret, with: "***") == "x *** y")
    }

    @Test func ordinaryTextIsLeftExactlyAsItWas() {
        let texts = [
            "family 👨‍👩‍👧 and flags 🏳️‍🌈 with ZWJ\u{200D}", "café\u{0301} — résumé", "line one\nline two\ttab",
            "\u{1B}[1;31mred\u{1B}[0m mk_ prefix alone", String(repeating: "mk_invis test key ", count: 50),
        ]
        for text in texts {
            #expect(SecretMask.mask(text, secret: Self.secret, with: "***") == text)
            #expect(!SecretMask.Matcher(secret: Self.secret).mayHold(text) || text.contains("mk_invis"))
        }
    }

    @Test func thePreCheckPassesEveryHidingPlaceAndStopsOrdinaryText() {
        let matcher = SecretMask.Matcher(secret: Self.secret)
        #expect(matcher.mayHold(Self.split(Self.secret, every: 2, with: "\u{180B}")))
        #expect(matcher.mayHold(Self.split(Self.secret, every: 4, with: "\u{1B}[32m")))
        #expect(!matcher.mayHold(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 200)))
    }

    /// Server text is masked where it is cleaned, before it reaches a model, the stores or
    /// the cache: a title, an output line and a status reason.
    /// Two keys sharing a piece (a key and the one it replaced): masked in one pass, so the
    /// first key's mask cannot leave pieces of the second one showing.
    @Test func overlappingKeysAreMaskedInOnePass() {
        let a = SecretMask.Matcher(secret: "mk_shared_piece_0123456789_aaaa")
        let b = SecretMask.Matcher(secret: "mk_bbbb_shared_piece_0123456789_bbbbbbbb")
        let text = "key mk_bbbb_shared_piece_0123456789_bbbbbbbb end"
        #expect(SecretMask.mask(text, with: [(a, "<A>"), (b, "<B>")]) == "key <B> end")
    }

    @Test func theKeyInServerTextIsMaskedOnArrival() throws {
        let key = APIKey("mk_arrival_mask_test_3f9a1c77e0b2")!
        ArrivalMask.add(key)
        let hidden = Self.split(key.secret, every: 5, with: "\u{180B}")
        ArrivalMask.add(key)  // again: tests running beside this one add keys of their own
        let task = try MakimaJSON.decode(
            MeshTask.self,
            from: Data(#"{"id":"t1","title":"deploy \#(hidden) now","status":"running"}"#.utf8))
        #expect(task.title == "deploy \(key.masked) now")
        ArrivalMask.add(key)
        let event = try MakimaJSON.decode(
            TaskEvent.self,
            from: Data(
                #"{"event_id":1,"task_id":"t1","seq":1,"type":"task.output","data":{"text":"token=\u001b[31m\#(key.secret)\n"}}"#
                    .utf8))
        guard case .output(let text, _) = event.payload else {
            Issue.record("not output")
            return
        }
        #expect(text == "token=\u{1B}[31m\(key.masked)\n")
        ArrivalMask.add(key)
        #expect(UntrustedText.clean("reason: \(key.secret.prefix(20))") == "reason: \(key.masked)")
    }
}
