import Foundation
import MakimaKit
import TestSupport
import Testing

/// Onboarding's checks and Settings' key actions against the dev server, with real files in a
/// temp config dir: each failure comes back in words, on its step, and nothing is stored
/// unless the server accepted the key.
@Suite(.serialized) struct SignInTests {
    final class Config {
        let dir = TempDirectory()
        var location: ConfigLocation { ConfigLocation(directory: dir.path) }
        func store() -> AuthStore { AuthStore(location: location, environment: EnvironmentOverrides()) }
        func storedKey(_ p: ServerProfile) throws -> APIKey? {
            try CredentialStore(location: location).key(for: p.credentialID)
        }
    }

    @Test("step 1: a copied API base is the server; the health check answers with a version")
    func checkServer() async throws {
        let server = try DevServer()
        let store = Config().store()
        let checked = try await store.checkServer(server.baseURL.absoluteString + "/api/v1/")
        #expect(checked.url == server.baseURL)
        #expect(checked.version?.isEmpty == false)
    }

    @Test("step 1 failures: unreachable, not a Makima server, plain http to a remote host")
    func serverProblems() async throws {
        let server = try DevServer()
        let store = Config().store()
        // A port nobody listens on: the dev server's, once stopped.
        let gone = try DevServer()
        let goneURL = gone.baseURL
        gone.stop()
        do {
            _ = try await store.checkServer(goneURL.absoluteString)
            Issue.record("a stopped server answered")
        } catch {
            guard case .unreachable(let host, _) = error else { return #expect(Bool(false), "\(error)") }
            #expect(host == "127.0.0.1:\(goneURL.port!)")
            #expect(error.step == .server)
        }
        // Something answers, but not Makima's health (a path with no API under it).
        do {
            _ = try await store.checkServer(server.baseURL.absoluteString + "/elsewhere")
            Issue.record("a path without the API passed the check")
        } catch {
            guard case .notMakimaServer = error else { return #expect(Bool(false), "\(error)") }
        }
        await #expect(throws: SignInProblem.insecureHTTPNeedsConfirmation(host: "makima.lan")) {
            try await store.checkServer("http://makima.lan")
        }
    }

    @Test("step 1: a bare host:port is tried as https; plain HTTP there is named, with the http:// to use")
    func bareHostPortSpeakingPlainHTTP() async throws {
        let server = try DevServer()
        let store = Config().store()
        let bare = "127.0.0.1:\(server.baseURL.port!)"
        do {
            _ = try await store.checkServer(bare)
            Issue.record("plain HTTP passed an https check")
        } catch {
            #expect(error == .plainHTTPOnly(host: bare, loopback: true))
            #expect(error.step == .server)
            #expect(error.description == "\(bare) answers plain HTTP, not HTTPS: use http://\(bare)")
        }
        let remote = SignInProblem.plainHTTPOnly(host: "makima.lan:8080", loopback: false)
        #expect(remote.description.contains("use http://makima.lan:8080"))
        #expect(remote.description.contains("--allow-insecure-http"))
    }

    @Test("step 1: a certificate that is not trusted names the host")
    func certificate() async throws {
        let tls = try WebSocketTLSTests.Fixture()
        let store = Config().store()
        do {
            _ = try await store.checkServer("https://127.0.0.1:\(tls.peer.port)")
            Issue.record("an untrusted certificate passed")
        } catch {
            guard case .certificateInvalid(let host, _) = error else { return #expect(Bool(false), "\(error)") }
            #expect(host == "127.0.0.1:\(tls.peer.port)")
            #expect(error.description.hasPrefix("the TLS certificate of 127.0.0.1:\(tls.peer.port) is not valid"))
        }
    }

    @Test("step 2: a wrong key and a revoked key are told apart; nothing is stored for either")
    func keyProblems() async throws {
        let server = try DevServer()
        let url = server.baseURL.absoluteString
        let c = Config()
        let store = c.store()
        await #expect(throws: SignInProblem.invalidKey("key must start with mk_")) {
            try await store.signIn(server: url, key: "sk_nope_12345")
        }
        await #expect(throws: SignInProblem.wrongKey) {
            try await store.signIn(server: url, key: "mk_never_issued_0000")
        }
        #expect(!FileManager.default.fileExists(atPath: c.location.configFile))
        // Rotate the demo key away on another config, then offer the old one here.
        let other = Config().store()
        try await other.signIn(server: url, key: server.apiKey.secret)
        let rotated = try await other.rotateAPIKey()
        #expect(rotated != server.apiKey)
        await #expect(throws: SignInProblem.keyRevoked) {
            try await store.signIn(server: url, key: server.apiKey.secret)
        }
        #expect(!FileManager.default.fileExists(atPath: c.location.configFile))
        // The right key lands: stored 0600, authenticated.
        let profile = try await store.signIn(server: url + "/api/v1", key: " \(rotated.secret)\n")
        #expect(profile.baseURL == server.baseURL)
        #expect(store.state == .authenticated(profile))
        #expect(try c.storedKey(profile) == rotated)
        let mode =
            try FileManager.default.attributesOfItem(
                atPath: CredentialStore(location: c.location).path(for: profile.credentialID))[.posixPermissions]
            as? Int
        #expect(mode == 0o600)
    }

    @Test("rotation stores the new key once the server accepted it, and keeps the old one on failure")
    func rotation() async throws {
        let server = try DevServer()
        let c = Config()
        let store = c.store()
        let profile = try await store.signIn(server: server.baseURL.absoluteString, key: server.apiKey.secret)
        try server.control(path: "/_dev/fail", query: ["count": "1", "status": "503"])
        await #expect(throws: SignInProblem.server("server error (HTTP 503): injected failure")) {
            try await store.rotateAPIKey()
        }
        #expect(try c.storedKey(profile) == server.apiKey)
        #expect(store.apiKey == server.apiKey)
        let fresh = try await store.rotateAPIKey()
        #expect(try c.storedKey(profile) == fresh)
        #expect(store.apiKey == fresh)
        #expect(!(try await #require(store.makeClient()).daemons().items.isEmpty))
        // A fresh start uses the stored new key.
        #expect(c.store().apiKey == fresh)
        try store.signOut()
        #expect(store.state == .needsOnboarding)
        #expect(try c.storedKey(profile) == nil)
    }

    @Test("switching between stored servers: checked first, nothing changes on failure, each keeps its key")
    func switchServers() async throws {
        let a = try DevServer()
        let b = try DevServer(seed: 3)
        let c = Config()
        let store = c.store()
        let onA = try await store.signIn(server: a.baseURL.absoluteString, key: a.apiKey.secret)
        let onB = try await store.signIn(server: b.baseURL.absoluteString, key: b.apiKey.secret)
        #expect(store.config.profiles.count == 2)
        #expect(store.state == .authenticated(onB))
        let back = try await store.switchServer(to: onA.id)
        #expect(back.id == onA.id)
        #expect(store.state == .authenticated(back))
        #expect(c.store().profile?.id == onA.id, "the switch is saved")
        b.stop()
        do {
            try await store.switchServer(to: onB.id)
            Issue.record("switched to a stopped server")
        } catch {
            guard case .unreachable = error else { return #expect(Bool(false), "\(error)") }
        }
        #expect(store.state == .authenticated(back), "a failed switch changes nothing")
        #expect(c.store().profile?.id == onA.id)
        #expect(try c.storedKey(onB) == b.apiKey, "the other server's key is kept")
    }

    @Test("theme and notification preferences are saved in the config file")
    func settings() async throws {
        let server = try DevServer()
        let c = Config()
        let store = c.store()
        try await store.signIn(server: server.baseURL.absoluteString, key: server.apiKey.secret)
        var prefs = store.notificationPreferences
        #expect(prefs == NotificationPreferences())
        prefs.taskCompleted = false
        prefs.desktop = false
        try store.saveNotificationPreferences(prefs)
        try store.saveTheme("high-contrast")
        let reopened = c.store()
        #expect(reopened.notificationPreferences == prefs)
        #expect(reopened.config.theme == "high-contrast")
        #expect(reopened.state == store.state)
    }
}
