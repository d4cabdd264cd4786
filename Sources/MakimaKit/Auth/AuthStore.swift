import Foundation

/// Sign-in state and the operations that change it (docs/api.md, "Sign-in states").
///
/// Threading: a plain class, not thread-safe, driven from one thread (the UI thread). The async
/// methods are `nonisolated(nonsending)`: they run on the caller's executor and only suspend for
/// the network, which happens on dedicated threads (see `APIClient`). Do not call two of them at
/// once. Every state change is reported synchronously through `onChange`.
///
/// Transitions:
/// - `configure`: needsOnboarding/error → validating → authenticated (persisted) | error (nothing written)
/// - `updateBaseURL`: authenticated → validating → authenticated(new URL) | needsOnboarding on 401
///   (new URL kept) | authenticated(old) on any other failure (nothing written), error thrown
/// - `rotateKey`: stays authenticated; the new key is stored only after the server accepted it;
///   the old key is kept on failure; a 401 leads to needsOnboarding
/// - `signOut`: local only (the key is not revoked on the server; use `APIClient.revokeKey()`
///   first for that): key file and profile removed → needsOnboarding
/// - `handleUnauthorized`: a 401 seen anywhere → needsOnboarding, server URL kept
public final class AuthStore {
    public private(set) var state: AuthState {
        didSet { if state != oldValue { onChange?(state) } }
    }
    /// Called on every state change, on the thread that caused it.
    public var onChange: ((AuthState) -> Void)?
    /// The current (or last) profile; kept through onboarding to prefill the server step.
    public private(set) var profile: ServerProfile?
    public private(set) var keySource: KeySource?
    public private(set) var config: AppConfig

    public let location: ConfigLocation
    public let transport: HTTPTransport
    private let configStore: ConfigStore
    private let credentials: CredentialStore
    private let environment: EnvironmentOverrides
    private var key: APIKey?

    /// Loads config.json and the active key. Starts `authenticated` when both are there (the
    /// first request will tell whether the key still works), `needsOnboarding` when not, and
    /// `error` when the files cannot be read.
    public init(
        location: ConfigLocation, environment: EnvironmentOverrides = .process,
        transport: HTTPTransport = HTTPTransport(), serverOverride: String? = nil, allowInsecureHTTP: Bool = false,
        profileName: String? = nil
    ) {
        self.location = location
        self.transport = transport
        self.environment = environment
        configStore = ConfigStore(location: location)
        credentials = CredentialStore(location: location)
        config = AppConfig()
        state = .needsOnboarding
        do {
            config = try configStore.load()
            let session = try SessionResolver.resolve(
                config: config, credentials: credentials, environment: environment,
                serverOverride: serverOverride, allowInsecureHTTP: allowInsecureHTTP, profileName: profileName)
            profile = session.profile
            key = session.key
            keySource = session.keySource
            if let p = session.profile, session.key != nil { state = .authenticated(p) }
        } catch {
            state = .error(String(describing: error))
        }
    }

    /// The key in use while authenticated (its description is masked).
    public var apiKey: APIKey? { if case .authenticated = state { return key } else { return nil } }

    /// A client for the signed-in server, or nil when not authenticated.
    public func makeClient() -> APIClient? {
        guard case .authenticated(let p) = state, let key else { return nil }
        return APIClient(profile: p, key: key, transport: transport)
    }

    /// Checks `server` + `key` with `GET /mesh/daemons`; on success stores the key and makes the
    /// profile active. With a `label` (the profile's name), the profile of that name is updated (its credential id and
    /// cache kept) or a new one made, whatever other profile has the same URL (a team's key and
    /// one's own on one server are two profiles); without one, a stored profile with the same
    /// URL is reused. Any other stored profile is left untouched. Throws `ServerURLError`,
    /// `APIError` or `ConfigError`.
    @discardableResult
    public nonisolated(nonsending) func configure(
        server: String, key newKey: APIKey, label: String? = nil,
        allowInsecureHTTP: Bool = false
    ) async throws -> ServerProfile {
        var candidate: ServerProfile
        do {
            if let label, let reason = ProfileName.problem(label) {
                throw ConfigError.invalidProfileName(label, reason: reason)
            }
            let url = try ServerURL.normalizeTyped(server, allowInsecureHTTP: allowInsecureHTTP)
            let existing = label.map { config.profile(named: $0) } ?? config.profile(forBaseURL: url)
            if var existing {
                try existing.setServer(server, allowInsecureHTTP: allowInsecureHTTP || existing.allowInsecureHTTP)
                candidate = existing
            } else {
                candidate = try ServerProfile(label: label, server: server, allowInsecureHTTP: allowInsecureHTTP)
            }
        } catch {
            state = .error(String(describing: error))
            throw error
        }
        state = .validating
        do {
            try await validate(candidate, newKey)
            candidate.markConnected()
            try credentials.store(newKey, for: candidate.credentialID)
            try persistProfile(candidate, active: true)
            return signedIn(candidate, key: newKey)
        } catch {
            state = .error(String(describing: error))
            throw error
        }
    }

    /// Points the signed-in profile at another URL with the same key, re-validating first.
    @discardableResult
    public nonisolated(nonsending) func updateBaseURL(_ server: String, allowInsecureHTTP: Bool = false) async throws
        -> ServerProfile
    {
        guard case .authenticated(let old) = state, let key else { throw ConfigError.notConfigured }
        var candidate = old
        try candidate.setServer(server, allowInsecureHTTP: allowInsecureHTTP)
        state = .validating
        do {
            try await validate(candidate, key)
        } catch let error as APIError where error.isUnauthorized {
            candidate.lastConnected = nil
            try? persistProfile(candidate)
            profile = candidate
            self.key = nil
            state = .needsOnboarding
            throw error
        } catch {
            state = .authenticated(old)
            throw error
        }
        candidate.markConnected()
        do { try persistProfile(candidate) } catch {
            state = .authenticated(old)
            throw error
        }
        profile = candidate
        state = .authenticated(candidate)
        return candidate
    }

    /// Asks the server for a new key and stores it once the server has accepted it (an
    /// authenticated `GET /auth/api-keys` with the new key). Returns the new key (masked when
    /// printed). On any failure the old key stays in use and on disk.
    @discardableResult
    public nonisolated(nonsending) func rotateKey() async throws -> APIKey {
        guard case .authenticated(let p) = state, let key else { throw ConfigError.notConfigured }
        if keySource == .environment { throw ConfigError.keyFromEnvironment }
        let client = APIClient(profile: p, key: key, transport: transport)
        let rotated: RotatedKey
        do {
            rotated = try await client.rotateKey()
        } catch let error as APIError where error.isUnauthorized {
            handleUnauthorized()
            throw error
        }
        // The server confirms the new key with an authenticated call before it is written.
        _ = try await APIClient(profile: p, key: rotated.key, transport: transport).apiKeys()
        try credentials.store(rotated.key, for: p.credentialID)
        self.key = rotated.key
        return rotated.key
    }

    /// Makes another stored profile the active one (Settings › Server › switch): its stored key
    /// is checked with an authenticated call first; on any failure nothing changes. Each server
    /// keeps its own cache, so switching back finds the old one.
    @discardableResult
    public nonisolated(nonsending) func switchProfile(to id: UUID) async throws -> ServerProfile {
        guard var target = config.profiles.first(where: { $0.id == id }) else { throw ConfigError.notConfigured }
        guard let storedKey = try credentials.key(for: target.credentialID) else {
            throw ConfigError.noKeyForServer(target.baseURL.absoluteString)
        }
        let previous = state
        state = .validating
        do {
            try await validate(target, storedKey)
            target.markConnected()
            try persistProfile(target, active: true)
        } catch {
            state = previous
            throw error
        }
        return signedIn(target, key: storedKey)
    }

    /// Removes a stored profile that is not the one in use, and its key file (local: the key is
    /// not revoked). Its cache stays on disk, as a signed-out server's does.
    public func removeProfile(named name: String) throws {
        guard let target = config.profile(named: name) else {
            throw ConfigError.unknownProfile(name, known: config.profileNames)
        }
        if target.id == profile?.id { return try signOut() }
        try forget(target)
    }

    /// Removes `stored`'s key file and the profile from config.json.
    private func forget(_ stored: ServerProfile) throws {
        try credentials.remove(for: stored.credentialID)
        var updated = config
        updated.profiles.removeAll { $0.id == stored.id }
        if updated.activeProfileID == stored.id { updated.activeProfileID = nil }
        try configStore.save(updated)
        config = updated
    }

    /// Whether a key is stored for `profile` (a key file that cannot be read counts as none).
    public func hasStoredKey(_ profile: ServerProfile) -> Bool {
        ((try? credentials.key(for: profile.credentialID)) ?? nil) != nil
    }

    /// Local sign-out: removes the active profile's key file and the profile.
    public func signOut() throws {
        if let p = profile, config.profiles.contains(where: { $0.id == p.id }) { try forget(p) }
        profile = nil
        key = nil
        keySource = nil
        state = .needsOnboarding
    }

    /// A 401/403 was seen somewhere: back to onboarding, server URL kept. The key file stays
    /// (a passing 401 must not destroy anything); onboarding replaces it.
    public func handleUnauthorized() {
        key = nil
        keySource = nil
        state = .needsOnboarding
    }

    /// Changes settings (theme, …) and saves config.json.
    public func updateSettings(_ change: (inout [String: JSONValue]) -> Void) throws {
        var updated = config
        change(&updated.settings)
        try configStore.save(updated)
        config = updated
    }

    private nonisolated(nonsending) func validate(_ candidate: ServerProfile, _ key: APIKey) async throws {
        let client = APIClient(profile: candidate, key: key, transport: transport)
        _ = try await client.daemons()
    }

    /// Saves `p` in the config file (made the active profile when `active`); the config in
    /// memory changes only once the file is written.
    private func persistProfile(_ p: ServerProfile, active: Bool = false) throws {
        var updated = config
        updated.upsert(p)
        if active { updated.activeProfileID = p.id }
        try configStore.save(updated)
        config = updated
    }

    /// Signs in with a profile whose key is stored (checked and saved by the caller).
    private func signedIn(_ p: ServerProfile, key: APIKey) -> ServerProfile {
        profile = p
        self.key = key
        keySource = .stored
        state = .authenticated(p)
        return p
    }
}
