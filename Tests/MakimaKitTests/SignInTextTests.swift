import Foundation
import Testing

@testable import MakimaKit

/// The parts of signing in that need no server: the typed address, the typed key, and the
/// words for each failure.
@Suite struct SignInTextTests {
    @Test(arguments: [
        ("", "https://makima.jp"),
        ("  ", "https://makima.jp"),
        ("makima.jp", "https://makima.jp"),
        ("makima.jp/", "https://makima.jp"),
        ("https://makima.jp/api/v1", "https://makima.jp"),
        ("HTTPS://Makima.JP/API/V1/", "https://makima.jp"),
        ("http://127.0.0.1:8787/api/v1//", "http://127.0.0.1:8787"),
        ("https://corp.example/makima/api/v1", "https://corp.example/makima"),
        ("https://corp.example/api/v1x", "https://corp.example/api/v1x"),
    ])
    func typedAddress(raw: String, expected: String) throws {
        #expect(try ServerURL.normalizeTyped(raw).absoluteString == expected)
    }

    @Test func typedAddressKeepsTheRules() {
        #expect(throws: ServerURLError.insecureHTTPRefused(host: "makima.lan")) {
            try ServerURL.normalizeTyped("http://makima.lan/api/v1")
        }
        #expect(throws: ServerURLError.self) { try ServerURL.normalizeTyped("https://makima.jp/api/v1?x=1") }
        #expect(
            SignInProblem.classify(ServerURLError.insecureHTTPRefused(host: "makima.lan"), host: "")
                == .insecureHTTPNeedsConfirmation(host: "makima.lan"))
    }

    @Test("the key is shown as mk_••••••••1234, and the prefix is checked as it is typed")
    func typedKey() {
        #expect(APIKey("mk_demo_local_key_0001")!.displayMasked == "mk_••••••••0001")
        #expect(APIKey.displayMask("") == "")
        #expect(APIKey.displayMask("mk") == "mk")
        #expect(APIKey.displayMask("mk_abc") == "mk_••••••••", "a short key shows none of its end")
        #expect(APIKey.displayMask("sk_live_0123456789abcdef") == "••••••••cdef")
        #expect(APIKey.typingProblem("") == nil)
        #expect(APIKey.typingProblem("m") == nil)
        #expect(APIKey.typingProblem("mk_") == nil)
        #expect(APIKey.typingProblem("mx") == "key must start with mk_")
        #expect(APIKey.typingProblem("sk_live") == "key must start with mk_")
        #expect(APIKey.typingProblem("mk_ab cd")?.contains("not allowed") == true)
        #expect(APIKey.typingProblem("mk_" + String(repeating: "a", count: 600)) == "key is too long")
    }

    @Test("each failure in words, on the step that can fix it")
    func classification() {
        let c = SignInProblem.classify
        #expect(c(APIError.unauthorized(status: 401), "h", false) == .wrongKey)
        #expect(c(APIError.unauthorized(status: 401), "h", true) == .keyRevoked)
        #expect(
            c(APIError.transport("Couldn't connect to server"), "h:1", false)
                == .unreachable(host: "h:1", reason: "Couldn't connect to server"))
        let tls = c(APIError.transport("SSL certificate problem: self-signed certificate"), "makima.lan", false)
        #expect(
            tls == .certificateInvalid(host: "makima.lan", reason: "SSL certificate problem: self-signed certificate"))
        #expect(tls.description.hasPrefix("the TLS certificate of makima.lan is not valid"))
        #expect(c(APIError.notFound, "h", false).step == .server)
        #expect(
            c(APIError.http(status: 502, message: "bad gateway"), "h", false)
                == .server("server error (HTTP 502): bad gateway"))
        #expect(c(ConfigError.keyFromEnvironment, "", false) == .keyFromEnvironment)
        #expect(SignInProblem.wrongKey.step == .key)
        #expect(SignInProblem.keyRevoked.description.contains("revoked"))
    }
}
