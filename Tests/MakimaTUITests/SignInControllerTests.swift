import Foundation
import Synchronization
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// A sign-in service whose answers the test decides: each call takes the next scripted answer
/// (or refuses in words when none is left) and answers at once; the controller still gets it
/// through the UI bus, as from a network thread.
final class ScriptedSignIn: SignInService, Sendable {
    struct Script {
        var servers: [Result<String, SignInProblem>] = []
        var keys: [Result<SignedIn, SignInProblem>] = []
        var verifies: [SignInProblem?] = []
        var rotations: [Result<SignedIn, SignInProblem>] = []
        var stored: [Result<SignedIn, SignInProblem>] = []
        /// The servers and the masked keys the controller asked about, in order.
        var asked: [String] = []
        var signedOut = 0
    }
    let script = Mutex(Script())

    var suggestedServer: String { ServerURL.defaultServer }

    func checkServer(
        _ typed: String, allowInsecureHTTP: Bool, done: @escaping @Sendable (Result<String, SignInProblem>) -> Void
    ) {
        let answer = script.withLock { s in
            s.asked.append("server \(typed)\(allowInsecureHTTP ? " insecure" : "")")
            return s.servers.isEmpty ? .failure(.server("no scripted answer")) : s.servers.removeFirst()
        }
        done(answer)
    }

    func signIn(
        server: String, key: String, allowInsecureHTTP: Bool,
        done: @escaping @Sendable (Result<SignedIn, SignInProblem>) -> Void
    ) {
        let answer = script.withLock { s in
            s.asked.append("key \(APIKey.displayMask(key)) for \(server)")
            return s.keys.isEmpty ? .failure(.server("no scripted answer")) : s.keys.removeFirst()
        }
        done(answer)
    }

    func storedSignIn(
        forServer url: String, done: @escaping @Sendable (Result<SignedIn, SignInProblem>?) -> Void
    ) {
        let answer = script.withLock { s in
            s.asked.append("stored \(url)")
            return s.stored.isEmpty ? nil : s.stored.removeFirst()
        }
        done(answer)
    }

    func verify(_ session: SignedIn, done: @escaping @Sendable (SignInProblem?) -> Void) {
        let answer = script.withLock { s in
            s.asked.append("verify \(session.key.masked)")
            return s.verifies.isEmpty ? SignInProblem.server("no scripted answer") : s.verifies.removeFirst()
        }
        done(answer)
    }

    func rotateKey(done: @escaping @Sendable (Result<SignedIn, SignInProblem>) -> Void) {
        let answer = script.withLock { s in
            s.asked.append("rotate")
            return s.rotations.isEmpty ? .failure(.server("no scripted answer")) : s.rotations.removeFirst()
        }
        done(answer)
    }

    func signOut() throws(SignInProblem) { script.withLock { $0.signedOut += 1 } }

    var configPath: String { "/tmp/makima-test/config.json" }
    func saveTheme(_ theme: String) throws(SignInProblem) { script.withLock { $0.asked.append("theme \(theme)") } }
    func saveNotifications(_ preferences: NotificationPreferences) throws(SignInProblem) {
        script.withLock { $0.asked.append("notifications bell=\(preferences.bell) failed=\(preferences.taskFailed)") }
    }

    func saveMouse(_ on: Bool) throws(SignInProblem) { script.withLock { $0.asked.append("mouse \(on)") } }

    var asked: [String] { script.withLock { $0.asked } }
}

func signedIn(_ server: String, _ key: String) throws -> SignedIn {
    let apiKey = try #require(APIKey(key))
    let client = APIClient(profile: try ServerProfile(server: server, allowInsecureHTTP: true), key: apiKey)
    return SignedIn(client: client, key: apiKey, keySource: "stored")
}

@MainActor @Suite("Signing in inside the dashboard: onboarding, 401 recovery, on a memory terminal")
struct SignInControllerTests {
    let unconfigured = LiveSetup.Access.notConfigured(message: "no server configured")

    @Test("unconfigured: onboarding opens; a wrong key stays on step 2 in words; the right one starts the engine")
    func onboarding() throws {
        let service = ScriptedSignIn()
        let right = try signedIn("http://127.0.0.1:9", "mk_right_key_abcd1234")
        service.script.withLock {
            $0.servers = [
                .failure(.unreachable(host: "nowhere.example", reason: "could not resolve host")),
                .success("http://127.0.0.1:9"),
            ]
            $0.keys = [.failure(.wrongKey), .success(right)]
        }
        let h = try ControllerHarness(access: unconfigured, signIn: service)
        defer { h.cleanUp() }
        #expect(h.engines.all.isEmpty)
        #expect(h.shows("01 SERVER → 02 KEY"), "\(h.screen)")
        #expect(h.shows("https://makima.jp"), "\(h.screen)")
        // The first typed character replaces the prefilled address.
        h.type(.char("n"), .char("o"), .enter)
        #expect(h.shows("cannot reach nowhere.example: could not resolve host"), "\(h.screen)")
        #expect(h.shows("SERVER   no"), "\(h.screen)")
        h.type(.ctrl("u"), .char("x"), .enter)
        #expect(h.shows("API KEY"), "\(h.screen)")
        // The prefix is checked as it is typed.
        h.type(.char("x"))
        #expect(h.shows("key must start with mk_"), "\(h.screen)")
        h.type(.backspace)
        for c in "mk_wrong_key_00009999" { h.type(.char(c)) }
        #expect(h.shows("mk_••••••••9999"), "\(h.screen)")
        #expect(!h.shows("wrong_key"), "\(h.screen)")
        h.type(.enter)
        #expect(h.shows("the server did not accept this key"), "\(h.screen)")
        #expect(h.shows("API KEY"), "\(h.screen)")
        #expect(h.engines.all.isEmpty)
        h.type(.ctrl("u"))
        for c in "mk_right_key_abcd1234" { h.type(.char(c)) }
        h.type(.enter)
        #expect(!h.shows("01 SERVER"), "\(h.screen)")
        #expect(h.shows("signed in to 127.0.0.1:9"), "\(h.screen)")
        #expect(h.shows("WS//…") || h.shows("WS//"), "\(h.screen)")
        let engine = try #require(h.engine)
        #expect(engine.started == 1)
        // Home's lists are fetched at once by the new engine.
        #expect(!engine.refreshed.isEmpty)
        #expect(
            service.asked == [
                "server no", "server x", "key mk_••••••••9999 for http://127.0.0.1:9",
                "key mk_••••••••1234 for http://127.0.0.1:9",
            ])
        h.post(.connection(ConnectionStatus(phase: .online)))
        #expect(h.shows("WS//ONLINE"), "\(h.screen)")
    }

    @Test("Esc on step 1 shows the dashboard underneath, which says K signs in; K opens sign-in again")
    func closeAndReopen() throws {
        let h = try ControllerHarness(access: unconfigured, signIn: ScriptedSignIn())
        defer { h.cleanUp() }
        #expect(h.shows("01 SERVER → 02 KEY"), "\(h.screen)")
        h.type(.escape)
        #expect(!h.shows("01 SERVER"), "\(h.screen)")
        #expect(h.shows("no server configured · K signs in here"), "\(h.screen)")
        h.type(.char("K"))
        #expect(h.shows("01 SERVER → 02 KEY"), "\(h.screen)")
        #expect(h.engines.all.isEmpty)
    }

    @Test("plain http:// to another host waits for Ctrl-Y, then is checked in insecure mode")
    func insecureConfirmation() throws {
        let service = ScriptedSignIn()
        service.script.withLock {
            $0.servers = [
                .failure(.insecureHTTPNeedsConfirmation(host: "lan.example")), .success("http://lan.example"),
            ]
        }
        let h = try ControllerHarness(access: unconfigured, signIn: service)
        defer { h.cleanUp() }
        for c in "http://lan.example" { h.type(.char(c)) }
        h.type(.enter)
        #expect(h.shows("Ctrl-Y: use plain http:// with lan.example anyway"), "\(h.screen)")
        h.type(.ctrl("y"))
        #expect(h.shows("API KEY"), "\(h.screen)")
        #expect(service.asked == ["server http://lan.example", "server http://lan.example insecure"])
    }

    @Test("where do I get a key: <server>/settings is shown and copied with OSC 52")
    func keyHelp() throws {
        let service = ScriptedSignIn()
        service.script.withLock { $0.servers = [.success("http://127.0.0.1:9")] }
        let h = try ControllerHarness(access: unconfigured, signIn: service)
        defer { h.cleanUp() }
        h.type(.enter)
        h.type(.ctrl("k"))
        #expect(h.shows("copied http://127.0.0.1:9/settings"), "\(h.screen)")
        let osc = String(decoding: h.terminal.backend.controlBytes, as: UTF8.self)
        let encoded = Data("http://127.0.0.1:9/settings".utf8).base64EncodedString()
        #expect(osc == "\u{1B}]52;c;\(encoded)\u{07}")
    }

    @Test("401: pill AUTH in warn at once, polling stops, data stays marked STALE; r resumes once the key works again")
    func unauthorizedRecovery() throws {
        let service = ScriptedSignIn()
        service.script.withLock { $0.verifies = [.keyRevoked, nil] }
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        let first = try #require(h.engine)
        h.post(
            .connection(ConnectionStatus(phase: .online)),
            .list(
                .daemons, .daemons([Daemon(id: "d1", hostname: "host-one", status: .online)]), fetchedAt: Date(),
                fromCache: false))
        #expect(h.shows("WS//ONLINE"), "\(h.screen)")
        h.post(.unauthorized(message: "401"))
        #expect(h.shows("WS//AUTH"), "\(h.screen)")
        let pill = try #require(h.terminal.backend.find("WS//AUTH"))
        #expect(h.terminal.backend.style(atX: pill.x, y: pill.y).fg == .warn)
        #expect(first.halted == 1)
        #expect(h.live.hub.daemons.list.isStale)
        #expect(h.shows("STALE"), "\(h.screen)")
        // The halted engine's last word does not turn the pill back.
        h.post(.connection(ConnectionStatus(phase: .idle)))
        #expect(h.shows("WS//AUTH"), "\(h.screen)")
        // No polling while refused.
        first.forgetRefreshes()
        h.advance(31)
        #expect(first.refreshed.isEmpty)
        // Still refused: said in words, nothing restarts.
        h.type(.char("r"))
        #expect(h.shows("still refused: this key has been revoked"), "\(h.screen)")
        #expect(h.engines.all.count == 1)
        // Accepted again: a new engine starts and fetches; the banner goes.
        h.advance(6)
        h.type(.char("r"))
        #expect(h.engines.all.count == 2)
        let second = try #require(h.engine)
        #expect(second.started == 1)
        #expect(!second.refreshed.isEmpty)
        #expect(!h.shows("the server refused the API key"), "\(h.screen)")
        h.post(.connection(ConnectionStatus(phase: .online)))
        #expect(h.shows("WS//ONLINE"), "\(h.screen)")
        // Polling is back.
        second.forgetRefreshes()
        h.advance(31)
        #expect(!second.refreshed.isEmpty)
        #expect(service.asked.count == 2)
    }

    @Test("K after a 401 opens step 2 in place; a new key the server takes resumes with it")
    func reenterKey() throws {
        let service = ScriptedSignIn()
        let fresh = try signedIn("http://127.0.0.1:1", "mk_new_key_after_rotation_7777")
        service.script.withLock { $0.keys = [.failure(.keyRevoked), .success(fresh)] }
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        h.post(.unauthorized(message: "401"))
        h.type(.char("K"))
        #expect(h.shows("NEW API KEY"), "\(h.screen)")
        #expect(h.shows("02 KEY"), "\(h.screen)")
        for c in "mk_revoked_key_0000000" { h.type(.char(c)) }
        h.type(.enter)
        #expect(h.shows("this key has been revoked"), "\(h.screen)")
        h.type(.ctrl("u"))
        for c in "mk_new_key_after_rotation_7777" { h.type(.char(c)) }
        h.type(.enter)
        #expect(!h.shows("NEW API KEY"), "\(h.screen)")
        #expect(h.engines.all.count == 2)
        #expect(!h.shows("WS//AUTH"), "\(h.screen)")
        #expect(service.asked.last == "key mk_••••••••7777 for http://127.0.0.1:1")
    }
}
