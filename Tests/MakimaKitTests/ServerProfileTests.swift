import Foundation
import Testing

@testable import MakimaKit

@Suite struct ServerURLNormalisationTests {
    @Test(arguments: [
        ("makima.jp", "https://makima.jp"),
        ("  https://makima.jp/  ", "https://makima.jp"),
        ("HTTPS://Makima.JP///", "https://makima.jp"),
        ("https://makima.jp/base/path/", "https://makima.jp/base/path"),
        ("https://makima.jp:8443", "https://makima.jp:8443"),
        ("\tmakima.jp:8443/x\n", "https://makima.jp:8443/x"),
        ("http://127.0.0.1:8787/", "http://127.0.0.1:8787"),
        ("http://127.4.5.6", "http://127.4.5.6"),
        ("http://LOCALHOST:9000", "http://localhost:9000"),
        ("http://[::1]:8080/", "http://[::1]:8080"),
        ("https://10.0.0.7", "https://10.0.0.7"),
    ])
    func accepts(raw: String, expected: String) throws {
        #expect(try ServerURL.normalize(raw).absoluteString == expected)
    }

    @Test(arguments: [
        ("", ServerURLError.empty),
        ("   ", ServerURLError.empty),
        ("ftp://makima.jp", ServerURLError.unsupportedScheme("ftp")),
        ("wss://makima.jp", ServerURLError.unsupportedScheme("wss")),
    ])
    func rejectsWithReason(raw: String, expected: ServerURLError) {
        #expect(throws: expected) { try ServerURL.normalize(raw) }
    }

    @Test(arguments: [
        "https://", "https:///path", "makima jp", "https://user:pw@makima.jp", "https://makima.jp/?q=1",
        "https://makima.jp/#frag", "https://-bad-.jp", "https://ma!kima.jp", "https://makima.jp:99999",
        "https://a..b", "https://makima.jp\\x", "mak\u{7}ima.jp",
    ])
    func rejectsJunk(raw: String) {
        #expect(throws: ServerURLError.self) { try ServerURL.normalize(raw) }
        do { _ = try ServerURL.normalize(raw) } catch {
            #expect(!error.description.isEmpty)
        }
    }

    @Test(arguments: [
        // (url, allowInsecureHTTP, accepted)
        ("http://makima.jp", false, false),
        ("http://makima.jp", true, true),
        ("http://10.0.0.5:8787", false, false),
        ("http://128.0.0.1", false, false),
        ("http://127.0.0.1.evil.com", false, false),
        ("http://localhost.evil.com", false, false),
        ("http://127.0.0.1", false, true),
        ("http://127.255.255.254:1", false, true),
        ("http://localhost", false, true),
        ("http://[::1]", false, true),
        ("https://makima.jp", false, true),
    ])
    func insecureHTTPRule(raw: String, allow: Bool, accepted: Bool) {
        let result = Result { () throws(ServerURLError) -> URL in try ServerURL.normalize(raw, allowInsecureHTTP: allow)
        }
        switch result {
        case .success: #expect(accepted, "\(raw) should have been refused")
        case .failure(let e):
            #expect(!accepted, "\(raw) refused: \(e)")
            if case .insecureHTTPRefused = e {} else { Issue.record("\(raw): expected insecureHTTPRefused, got \(e)") }
        }
    }

    @Test func insecureRefusalTellsHowToAllow() {
        #expect(throws: ServerURLError.insecureHTTPRefused(host: "makima.jp")) {
            try ServerURL.normalize("http://makima.jp")
        }
        #expect(ServerURLError.insecureHTTPRefused(host: "makima.jp").description.contains("--allow-insecure-http"))
    }
}

@Suite struct ServerProfileTests {
    @Test func derivesAPIAndWebSocketURLs() throws {
        let secure = try ServerProfile(server: "makima.jp/")
        #expect(secure.apiBaseURL.absoluteString == "https://makima.jp/api/v1")
        #expect(secure.webSocketURL.absoluteString == "wss://makima.jp/api/v1/mesh/tasks/subscribe")
        #expect(WebSettingsLink.url(forServer: "makima.jp/")?.absoluteString == "https://makima.jp/settings")
        let local = try ServerProfile(server: "http://127.0.0.1:8787/prefix/")
        #expect(local.apiBaseURL.absoluteString == "http://127.0.0.1:8787/prefix/api/v1")
        #expect(local.webSocketURL.absoluteString == "ws://127.0.0.1:8787/prefix/api/v1/mesh/tasks/subscribe")
        #expect(local.label == "127.0.0.1:8787")
    }

    @Test func credentialIDSurvivesEditsAndStorage() throws {
        var p = try ServerProfile(label: "work", server: "https://makima.jp")
        let credential = p.credentialID
        p.label = "renamed"
        try p.setServer("https://other.example/", allowInsecureHTTP: false)
        #expect(p.credentialID == credential)
        #expect(p.baseURL.absoluteString == "https://other.example")
        let data = try MakimaJSON.encoder().encode(p)
        let back = try MakimaJSON.decode(ServerProfile.self, from: data)
        #expect(back == p)
        #expect(back.credentialID == credential)
        let p2 = try ServerProfile(server: "https://makima.jp")
        #expect(p2.credentialID != credential)
    }

    @Test func storedInsecurePermissionIsKeptAndChecked() throws {
        let p = try ServerProfile(server: "http://makima.lan", allowInsecureHTTP: true)
        let back = try MakimaJSON.decode(ServerProfile.self, from: try MakimaJSON.encoder().encode(p))
        #expect(back.allowInsecureHTTP)
        #expect(back.baseURL.absoluteString == "http://makima.lan")
    }

    @Test func handEditedJunkURLIsRefusedNamingTheField() throws {
        let json =
            #"{"id":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","credential_id":"6F9619FF-8B86-D011-B42D-00CF4FC964FE","base_url":"http://evil.example"}"#
        #expect {
            try MakimaJSON.decode(ServerProfile.self, from: Data(json.utf8))
        } throws: { error in
            guard case .dataCorrupted(let ctx) = error as? DecodingError else { return false }
            return ctx.codingPath.last?.stringValue == "base_url" && ctx.debugDescription.contains("refused")
        }
    }
}
