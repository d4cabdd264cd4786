import Foundation
import Testing

@testable import MakimaKit

/// The key echoed by a server never reaches a message whole, cut, or split by invisible
/// characters.
@Suite struct SecretMaskTests {
    static let key = APIKey("mk_mask_test_secret_51d0e7a9c3")!

    /// True when `text` holds no piece of the key of 8 characters or more (the mask itself,
    /// `mk_…` and the last four, is shorter), invisible characters ignored.
    static func holdsNoPieceOfTheKey(_ text: String) -> Bool {
        let visible = Array(SecretMask.removingInvisibles(text).unicodeScalars)
        let secret = Array(key.secret.unicodeScalars)
        guard visible.count >= 8 else { return true }
        for start in 0...(secret.count - 8) {
            let piece = String(String.UnicodeScalarView(secret[start..<start + 8]))
            if String(String.UnicodeScalarView(visible)).contains(piece) { return false }
        }
        return true
    }

    @Test(arguments: [
        "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{00AD}", "\u{FE0F}", "\u{034F}", "\u{E0001}",
    ])
    func aCopySplitByAnInvisibleCharacterIsMasked(invisible: String) {
        let secret = Self.key.secret
        let split = String(secret.prefix(10)) + invisible + String(secret.dropFirst(10))
        let masked = SecretMask.mask("the key \(split) is revoked", secret: secret, with: Self.key.masked)
        #expect(masked == "the key \(Self.key.masked) is revoked")
    }

    @Test func aCutCopyIsMaskedAndOrdinaryTextIsLeftAlone() {
        let secret = Self.key.secret
        let cut = String(secret.prefix(20))
        #expect(SecretMask.mask("key \(cut)", secret: secret, with: "***") == "key ***")
        let tail = String(secret.suffix(14))
        #expect(SecretMask.mask("…\(tail) end", secret: secret, with: "***") == "…*** end")
        let plain = "task failed: mk_ keys are rotated daily (see docs)"
        #expect(SecretMask.mask(plain, secret: secret, with: "***") == plain)
    }

    @Test func theKeyAtTheCutIsMaskedBeforeTheMessageIsCut() {
        // The key straddles the 200-character limit: cut first, then masked, a piece survived.
        let message = String(repeating: "a", count: APIError.maxMessageLength - 12) + " " + Self.key.secret
        let body = try! JSONSerialization.data(withJSONObject: ["error": message])
        let shown = APIError.serverMessage(from: body, masking: Self.key)
        #expect(shown.count <= APIError.maxMessageLength)
        #expect(Self.holdsNoPieceOfTheKey(shown))
    }

    @Test func echoedKeyOnTheWireIsMaskedEvenWhenCutOrSplit() async throws {
        let secret = Self.key.secret
        let padding = String(repeating: "x", count: 190)
        let bodies = [
            #"{"error":"\#(padding) \#(secret)"}"#,
            #"{"error":"bad key \#(secret.prefix(12))\u200b\#(secret.dropFirst(12))"}"#,
            "<html>\(padding)\(secret)</html>",
        ]
        for body in bodies {
            let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.response(status: 500, body: body) }
            let client = APIClient(
                profile: try ServerProfile(server: server.baseURL), key: Self.key,
                transport: HTTPTransport(configuration: HTTPConfiguration(proxies: .none)))
            do {
                _ = try await client.daemons()
                Issue.record("expected an error")
            } catch let error as APIError {
                #expect(Self.holdsNoPieceOfTheKey(error.description))
            }
        }
    }

    @Test func aWebSocketCloseReasonEchoingTheKeyIsMasked() {
        let split = String(Self.key.secret.prefix(5)) + "\u{200B}" + String(Self.key.secret.dropFirst(5))
        let reason = WebSocketCloseReason.normal(code: 4001, reason: "bad key \(split)").redacting(Self.key)
        #expect(reason == .normal(code: 4001, reason: "bad key \(Self.key.masked)"))
        #expect(Self.holdsNoPieceOfTheKey(reason.description))
    }
}
