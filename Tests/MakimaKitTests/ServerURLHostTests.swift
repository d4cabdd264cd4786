import Foundation
import Testing

@testable import MakimaKit

/// International host names are accepted and kept as punycode; a port is checked as typed.
@Suite struct ServerURLHostTests {
    @Test(arguments: [
        ("bücher.example", "https://xn--bcher-kva.example"),
        ("https://BÜCHER.example:8443/api/", "https://xn--bcher-kva.example:8443/api"),
        ("https://例え.テスト", "https://xn--r8jz45g.xn--zckzah"),
        ("xn--bcher-kva.example", "https://xn--bcher-kva.example"),
        ("https://münchen.de", "https://xn--mnchen-3ya.de"),
    ])
    func internationalHostsBecomePunycode(raw: String, expected: String) throws {
        #expect(try ServerURL.normalize(raw).absoluteString == expected)
    }

    @Test(arguments: [
        "https://makima.jp:99999999999999999999", "https://makima.jp:65536", "https://makima.jp:0",
        "https://makima.jp:-1", "https://makima.jp:+80", "https://makima.jp:8O", "https://xn--zz.example",
        "https://a\u{200B}b.example", "https://☃.net", "https://bü\u{180B}cher.example",
    ])
    func badPortsAndNamesAreRefused(raw: String) {
        #expect(throws: ServerURLError.self) { try ServerURL.normalize(raw) }
    }

    @Test func portsAtTheEdgesAreKept() throws {
        #expect(try ServerURL.normalize("https://makima.jp:1").port == 1)
        #expect(try ServerURL.normalize("https://makima.jp:65535").port == 65535)
    }
}
