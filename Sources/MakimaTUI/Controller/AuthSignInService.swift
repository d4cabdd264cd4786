import Foundation
import MakimaKit
import Synchronization

/// Signing in through an `AuthStore` (the same files and checks as `makima-tui login`: the key
/// in a 0600 file, the profile in config.json). Each call runs as a detached task: the
/// requests themselves run on threads of their own (`APIClient`), so neither the UI thread nor
/// the cooperative pool waits for the network.
///
/// `@unchecked Sendable`: the store is a plain class meant for one caller at a time; `gate`
/// lets one operation run at once and refuses a second one in words.
public final class AuthSignInService: SignInService, @unchecked Sendable {
    private let store: AuthStore
    private let gate = Mutex(false)

    public init(store: AuthStore) { self.store = store }

    public var suggestedServer: String {
        guard gate.withLock({ !$0 }) else { return ServerURL.defaultServer }
        return store.profile?.baseURL.absoluteString ?? ServerURL.defaultServer
    }

    public func checkServer(
        _ typed: String, allowInsecureHTTP: Bool, done: @escaping @Sendable (Result<String, SignInProblem>) -> Void
    ) {
        run(done) { store in
            do {
                let server = try await store.checkServer(typed, allowInsecureHTTP: allowInsecureHTTP)
                return .success(server.url.absoluteString)
            } catch { return .failure(SignInProblem.classify(error, host: "")) }
        }
    }

    public func signIn(
        server: String, key: String, allowInsecureHTTP: Bool,
        done: @escaping @Sendable (Result<SignedIn, SignInProblem>) -> Void
    ) {
        run(done) { store in
            do {
                let profile = try await store.signIn(server: server, key: key, allowInsecureHTTP: allowInsecureHTTP)
                guard let key = store.apiKey else { return .failure(.local("the key was not kept")) }
                return .success(
                    SignedIn(
                        client: APIClient(profile: profile, key: key, transport: store.transport), key: key,
                        keySource: "stored"))
            } catch { return .failure(SignInProblem.classify(error, host: "")) }
        }
    }

    public var profileNames: [String] { store.config.profileNames }

    public func storedSignIn(
        profileNamed name: String, done: @escaping @Sendable (Result<SignedIn, SignInProblem>?) -> Void
    ) {
        storedSignIn(done) { $0.config.profile(named: name) }
    }

    public func storedSignIn(
        forServer url: String, done: @escaping @Sendable (Result<SignedIn, SignInProblem>?) -> Void
    ) {
        storedSignIn(done) { store in URL(string: url).flatMap { store.config.profile(forBaseURL: $0) } }
    }

    /// Makes the stored profile `find` picks the active one, its stored key checked first
    /// (nil: no such profile, or no key stored for it).
    private func storedSignIn(
        _ done: @escaping @Sendable (Result<SignedIn, SignInProblem>?) -> Void,
        find: @escaping @Sendable (AuthStore) -> ServerProfile?
    ) {
        let unwrap: @Sendable (Result<SignedIn?, SignInProblem>) -> Void = { answer in
            switch answer {
            case .success(let s): done(s.map { .success($0) })
            case .failure(let p): done(.failure(p))
            }
        }
        run(unwrap) { store in
            guard let profile = find(store) else { return .success(nil) }
            do {
                let active = try await store.switchProfile(to: profile.id)
                guard let key = store.apiKey else { return .success(nil) }
                return .success(
                    SignedIn(
                        client: APIClient(profile: active, key: key, transport: store.transport), key: key,
                        keySource: "stored"))
            } catch ConfigError.noKeyForServer {
                return .success(nil)
            } catch {
                return .failure(SignInProblem.classify(error, host: profile.displayHost))
            }
        }
    }

    public func verify(_ session: SignedIn, done: @escaping @Sendable (SignInProblem?) -> Void) {
        let client = session.client
        let key = session.key
        Task.detached {
            do {
                _ = try await client.daemons()
                done(nil)
            } catch let error as APIError where error.isUnauthorized {
                let revoked = await SignInProbe.isRevoked(key, profile: client.profile, transport: client.transport)
                done(SignInProblem.classify(error, host: client.profile.displayHost, revoked: revoked))
            } catch {
                done(SignInProblem.classify(error, host: client.profile.displayHost))
            }
        }
    }

    public func rotateKey(done: @escaping @Sendable (Result<SignedIn, SignInProblem>) -> Void) {
        run(done) { store in
            do {
                let key = try await store.rotateAPIKey()
                guard let client = store.makeClient() else { return .failure(.local("not signed in")) }
                return .success(SignedIn(client: client, key: key, keySource: "stored"))
            } catch { return .failure(SignInProblem.classify(error, host: "")) }
        }
    }

    public func signOut() throws(SignInProblem) {
        guard gate.withLock({ !$0 }) else { throw .local("another sign-in step is still running") }
        if store.keySource == .environment { throw .keyFromEnvironment }
        do { try store.signOut() } catch { throw SignInProblem.classify(error, host: "") }
    }

    public var configPath: String { store.location.configFile }

    public func saveTheme(_ theme: String) throws(SignInProblem) {
        guard gate.withLock({ !$0 }) else { throw .local("another sign-in step is still running") }
        try store.saveTheme(theme)
    }

    public func saveNotifications(_ preferences: NotificationPreferences) throws(SignInProblem) {
        guard gate.withLock({ !$0 }) else { throw .local("another sign-in step is still running") }
        try store.saveNotificationPreferences(preferences)
    }

    public func saveMouse(_ on: Bool) throws(SignInProblem) {
        guard gate.withLock({ !$0 }) else { throw .local("another sign-in step is still running") }
        try store.saveMouse(on)
    }

    /// One operation at a time, off the caller's thread.
    private func run<T: Sendable>(
        _ done: @escaping @Sendable (Result<T, SignInProblem>) -> Void,
        _ body: @escaping @Sendable (AuthStore) async -> Result<T, SignInProblem>
    ) {
        let free = gate.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard free else { return done(.failure(.local("another sign-in step is still running"))) }
        Task.detached { [self] in
            let result = await body(store)
            gate.withLock { $0 = false }
            done(result)
        }
    }
}
