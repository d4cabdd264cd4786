import Foundation
import MakimaKit
import TestSupport
import Testing

/// Every AuthStore transition against the dev server, with real files in a temp config dir.
@Suite(.serialized) struct AuthStoreTests {
    /// A store over a fresh config dir that records every state it passes through.
    final class Recorder {
        let dir = TempDirectory()
        var states: [AuthState] = []
        var location: ConfigLocation { ConfigLocation(directory: dir.path) }

        func makeStore(environment: EnvironmentOverrides = EnvironmentOverrides()) -> AuthStore {
            let store = AuthStore(location: location, environment: environment)
            store.onChange = { [unowned self] in self.states.append($0) }
            return store
        }

        func storedKey(_ profile: ServerProfile) throws -> APIKey? {
            try CredentialStore(location: location).key(for: profile.credentialID)
        }

        var configExists: Bool { FileManager.default.fileExists(atPath: location.configFile) }
        var credentialFiles: [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: location.credentialsDirectory)) ?? []
        }
    }

    @Test func startsInOnboardingWithNothingStored() {
        let r = Recorder()
        let store = r.makeStore()
        #expect(store.state == .needsOnboarding)
        #expect(store.makeClient() == nil)
        #expect(store.apiKey == nil)
    }

    @Test func configureSuccessPersistsAndAFreshStoreStartsAuthenticated() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        let profile = try await store.configure(
            server: server.baseURL.absoluteString + "/", key: server.apiKey, label: "dev")
        #expect(r.states == [.validating, .authenticated(profile)])
        #expect(profile.label == "dev")
        #expect(profile.lastConnected != nil)
        #expect(try r.storedKey(profile) == server.apiKey)
        #expect(store.keySource == .stored)
        let reopened = AuthStore(location: r.location, environment: EnvironmentOverrides())
        #expect(reopened.state == .authenticated(profile))
        #expect(reopened.apiKey == server.apiKey)
        let daemons = try await #require(reopened.makeClient()).daemons()
        #expect(!daemons.items.isEmpty)
    }

    @Test func configureWithARejectedKeyStoresNothing() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        await #expect(throws: APIError.unauthorized(status: 401)) {
            try await store.configure(server: server.baseURL.absoluteString, key: APIKey("mk_wrong_key_0000")!)
        }
        guard case .error(let message)? = r.states.last else {
            Issue.record("expected an error state, got \(r.states)")
            return
        }
        #expect(r.states.first == .validating)
        #expect(message.contains("401"))
        #expect(!r.configExists)
        #expect(r.credentialFiles.isEmpty)
    }

    @Test func configureWithAnUnreachableServerStoresNothing() async throws {
        let server = try DevServer()
        let url = server.baseURL.absoluteString
        server.stop()
        let r = Recorder()
        let store = r.makeStore()
        await #expect { try await store.configure(server: url, key: server.apiKey) } throws: { e in
            if case .transport = e as? APIError { return true } else { return false }
        }
        guard case .error(let message)? = r.states.last else {
            Issue.record("expected an error state")
            return
        }
        #expect(message.contains("cannot reach server"))
        #expect(!r.configExists)
    }

    @Test func configureWithAnInvalidOrInsecureURLIsAnErrorBeforeAnyRequest() async throws {
        let r = Recorder()
        let store = r.makeStore()
        await #expect(throws: ServerURLError.insecureHTTPRefused(host: "makima.example")) {
            try await store.configure(server: "http://makima.example", key: APIKey("mk_some_key_0000")!)
        }
        #expect(r.states == [.error(ServerURLError.insecureHTTPRefused(host: "makima.example").description)])
        await #expect(throws: ServerURLError.self) {
            try await store.configure(server: "ftp://x", key: APIKey("mk_some_key_0000")!)
        }
        #expect(!r.configExists)
    }

    @Test func updateBaseURLKeepsTheKeyAndCredentialID() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        let before = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        r.states.removeAll()
        let after = try await store.updateBaseURL("http://localhost:\(server.port)")
        #expect(after.baseURL.absoluteString == "http://localhost:\(server.port)")
        #expect(after.credentialID == before.credentialID)
        #expect(after.id == before.id)
        #expect(r.states == [.validating, .authenticated(after)])
        #expect(try r.storedKey(after) == server.apiKey)
        #expect(AuthStore(location: r.location, environment: EnvironmentOverrides()).state == .authenticated(after))
    }

    @Test func updateBaseURLToAServerThatRejectsTheKeyGoesToOnboardingKeepingTheURL() async throws {
        let server = try DevServer()
        let other = try DevServer(demoKey: "mk_other_server_key_0002")
        let r = Recorder()
        let store = r.makeStore()
        _ = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        r.states.removeAll()
        await #expect(throws: APIError.unauthorized(status: 401)) {
            try await store.updateBaseURL(other.baseURL.absoluteString)
        }
        #expect(r.states == [.validating, .needsOnboarding])
        #expect(store.profile?.baseURL == other.baseURL)
        #expect(store.makeClient() == nil)
    }

    @Test func updateBaseURLToAnUnreachableServerChangesNothing() async throws {
        let server = try DevServer()
        let gone = try DevServer()
        let goneURL = gone.baseURL.absoluteString
        gone.stop()
        let r = Recorder()
        let store = r.makeStore()
        let before = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        r.states.removeAll()
        await #expect { try await store.updateBaseURL(goneURL) } throws: { e in
            if case .transport = e as? APIError { return true } else { return false }
        }
        #expect(r.states == [.validating, .authenticated(before)])
        #expect(store.config.activeProfile?.baseURL == before.baseURL)
        #expect(AuthStore(location: r.location, environment: EnvironmentOverrides()).state == .authenticated(before))
    }

    @Test func rotateKeyStoresTheNewKeyOnlyAfterTheServerAnswered() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        let profile = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        let fresh = try await store.rotateKey()
        #expect(fresh != server.apiKey)
        #expect(try r.storedKey(profile) == fresh)
        #expect(store.apiKey == fresh)
        #expect(store.state == .authenticated(profile))
        let daemons = try await #require(store.makeClient()).daemons()
        #expect(!daemons.items.isEmpty)
    }

    @Test func rotateKeyFailureKeepsTheOldKey() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        let profile = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        try server.control(path: "/_dev/fail", query: ["count": "1", "status": "500"])
        await #expect(throws: APIError.http(status: 500, message: "injected failure")) { try await store.rotateKey() }
        #expect(try r.storedKey(profile) == server.apiKey)
        #expect(store.apiKey == server.apiKey)
        #expect(store.state == .authenticated(profile))
        let daemons = try await #require(store.makeClient()).daemons()
        #expect(!daemons.items.isEmpty)
    }

    @Test func rotateKeyRejectedGoesToOnboarding() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        let profile = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        try server.control(path: "/_dev/unauthorized", query: ["on": "true"])
        await #expect(throws: APIError.unauthorized(status: 401)) { try await store.rotateKey() }
        #expect(store.state == .needsOnboarding)
        #expect(try r.storedKey(profile) == server.apiKey, "a 401 does not destroy the stored key")
    }

    @Test func signOutRemovesKeyAndProfile() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        let profile = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        try store.signOut()
        #expect(store.state == .needsOnboarding)
        #expect(store.profile == nil)
        #expect(try r.storedKey(profile) == nil)
        #expect(r.credentialFiles.isEmpty)
        #expect(store.config.profiles.isEmpty)
        #expect(AuthStore(location: r.location, environment: EnvironmentOverrides()).state == .needsOnboarding)
        // The key itself still works on the server: sign-out is local.
        _ = try await server.client().daemons()
    }

    @Test func unauthorizedAnywhereGoesToOnboardingKeepingTheServer() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        let profile = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        try server.control(path: "/_dev/unauthorized", query: ["on": "true"])
        do {
            _ = try await #require(store.makeClient()).daemons()
            Issue.record("expected 401")
        } catch let e as APIError where e.isUnauthorized {
            store.handleUnauthorized()
        }
        #expect(store.state == .needsOnboarding)
        #expect(store.profile?.baseURL == profile.baseURL)
        // Onboarding again with the same server reuses the profile and its credential id.
        try server.control(path: "/_dev/unauthorized", query: ["on": "false"])
        let again = try await store.configure(server: profile.baseURL.absoluteString, key: server.apiKey)
        #expect(again.id == profile.id)
        #expect(again.credentialID == profile.credentialID)
    }

    @Test func environmentKeyIsUsedButNeverStoredOrRotated() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore(
            environment: EnvironmentOverrides(serverURL: server.baseURL.absoluteString, apiKey: server.apiKey.secret))
        guard case .authenticated(let p) = store.state else {
            Issue.record("expected authenticated, got \(store.state)")
            return
        }
        #expect(p.baseURL == server.baseURL)
        #expect(store.keySource == .environment)
        _ = try await #require(store.makeClient()).daemons()
        await #expect(throws: ConfigError.keyFromEnvironment) { try await store.rotateKey() }
        #expect(!r.configExists)
        #expect(r.credentialFiles.isEmpty)
    }

    /// The UI drives the store from the main actor: the async calls stay on the caller's
    /// executor (nonisolated(nonsending)) across their network waits, and the state callback
    /// fires there, never on a network or pool thread.
    @MainActor @Test func drivableFromTheMainActor() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        let home = pthread_self()
        var callbacksAtHome: [Bool] = []
        store.onChange = { _ in callbacksAtHome.append(pthread_equal(pthread_self(), home) != 0) }
        let profile = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        #expect(pthread_equal(pthread_self(), home) != 0)
        #expect(store.state == .authenticated(profile))
        #expect(callbacksAtHome == [true, true])
        _ = try await store.rotateKey()
        #expect(pthread_equal(pthread_self(), home) != 0)
    }

    @Test func theKeyAppearsInNoDescription() async throws {
        let server = try DevServer()
        let r = Recorder()
        let store = r.makeStore()
        let profile = try await store.configure(server: server.baseURL.absoluteString, key: server.apiKey)
        try server.control(path: "/_dev/fail", query: ["count": "1", "status": "500"])
        var caught: Error?
        do { _ = try await store.rotateKey() } catch { caught = error }
        var dumped = ""
        dump(store, to: &dumped)
        dump(store.config, to: &dumped)
        let texts = [
            String(describing: store), String(reflecting: store), dumped,
            String(describing: profile), String(reflecting: profile), String(describing: store.config),
            String(describing: store.state), String(describing: store.apiKey as Any),
            String(reflecting: store.apiKey as Any),
            String(describing: caught as Any), caught.map { "\($0.localizedDescription)" } ?? "",
            String(describing: try #require(store.makeClient())),
            try String(contentsOfFile: r.location.configFile, encoding: .utf8),
        ]
        let secret = server.apiKey.secret
        for (i, text) in texts.enumerated() {
            let leaked = text.contains(secret)
            #expect(!leaked, "text #\(i) holds the key")
        }
        #expect(dumped.contains(server.apiKey.masked))
    }
}
