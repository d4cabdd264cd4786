import Foundation
import MakimaKit
import TestSupport
import Testing

/// `makima-tui login` run as a subprocess against the dev server: the typed server is
/// normalised and checked first, a refused key is asked for again (three tries), and every
/// failure is said in words with its exit code.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CLILoginTests {
    typealias Session = CLITests.Session

    func storedKeys(_ s: Session) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: s.configDir + "/credentials")) ?? []
    }

    @Test("two wrong keys, then the right one: asked again each time, then stored")
    func retriesUntilTheRightKey() throws {
        let server = try DevServer()
        let s = Session()
        let r = try s.run(
            ["login", "--server", server.baseURL.absoluteString + "/api/v1/"],
            stdin: "mk_never_issued_0000\nnot-a-key\n\(server.apiKey.secret)\n")
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("the server did not accept this key; check that it was copied whole (try 1 of 3)"))
        #expect(r.stderr.contains("not an API key: key must start with mk_ (try 2 of 3)"))
        #expect(r.stdout == "logged in to \(server.baseURL.absoluteString) with key \(server.apiKey.displayMasked)\n")
        #expect(storedKeys(s).count == 1)
        #expect(s.neverPrinted(server.apiKey.secret))
        // Without --server the stored one is the default.
        let again = try s.run(["login"], stdin: server.apiKey.secret + "\n")
        #expect(again.status == 0, "stderr: \(again.stderr)")
        #expect(again.stdout.contains("logged in to \(server.baseURL.absoluteString)"))
    }

    @Test("three refused keys: exit 4, nothing stored; a revoked key is called revoked")
    func givesUpAfterThreeTries() throws {
        let server = try DevServer()
        // Revoke the demo key by rotating it away.
        _ = try server.control(method: .get, path: "/_dev/seeded")
        let rotated =
            try JSONSerialization.jsonObject(
                with: try CLIRunner.rotate(server)) as? [String: Any]
        #expect((rotated?["key"] as? String)?.hasPrefix("mk_") == true)
        let s = Session()
        let r = try s.run(
            ["login", "--server", server.baseURL.absoluteString],
            stdin: "\(server.apiKey.secret)\nmk_never_issued_0000\nmk_never_issued_0001\n")
        #expect(r.status == 4)
        #expect(r.stderr.contains("this key has been revoked"))
        #expect(r.stderr.contains("(try 2 of 3)"))
        #expect(r.stderr.contains("no key was accepted after 3 tries"))
        #expect(r.stdout.isEmpty)
        #expect(storedKeys(s).isEmpty)
        #expect(s.neverPrinted(server.apiKey.secret))
    }

    @Test("the server is checked before a key is asked for")
    func serverProblems() throws {
        let s = Session()
        let gone = try DevServer()
        let url = gone.baseURL.absoluteString
        gone.stop()
        let unreachable = try s.run(["login", "--server", url], stdin: "mk_demo_local_key_0001\n")
        #expect(unreachable.status == 5)
        #expect(unreachable.stderr.contains("cannot reach 127.0.0.1:"))
        #expect(!unreachable.stderr.contains("API key for"))
        let insecure = try s.run(["login", "--server", "http://makima.lan"], stdin: "mk_demo_local_key_0001\n")
        #expect(insecure.status == 2)
        #expect(insecure.stderr.contains("confirm with --allow-insecure-http"))
        let server = try DevServer()
        let notMakima = try s.run(
            ["login", "--server", server.baseURL.absoluteString + "/elsewhere"], stdin: "mk_demo_local_key_0001\n")
        #expect(notMakima.status == 6)
        #expect(notMakima.stderr.contains("does not look like a Makima server"))
    }
}

extension CLIRunner {
    /// `POST /auth/api-keys/refresh` with the server's demo key (the old key is revoked).
    static func rotate(_ server: DevServer) throws -> Data {
        let request = HTTPRequest(
            method: .post, url: server.baseURL.appendingPathComponent("api/v1/auth/api-keys/refresh"),
            headers: [("x-makima-api-key", server.apiKey.secret)])
        let response = try HTTPTransport().perform(request)
        guard response.isSuccess else { throw DevServer.StartFailure(description: "refresh: HTTP \(response.status)") }
        return response.body
    }
}
