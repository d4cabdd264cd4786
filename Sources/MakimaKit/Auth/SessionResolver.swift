import Foundation

/// Where the key in use came from.
public enum KeySource: Sendable, Equatable {
    case stored
    /// `MAKIMA_API_KEY`: used for this run only, never written to disk.
    case environment
}

/// `MAKIMA_SERVER_URL`, `MAKIMA_API_KEY` and `MAKIMA_PROFILE`: per-run overrides for scripts;
/// never persisted.
public struct EnvironmentOverrides: Sendable {
    public var serverURL: String?
    public var apiKey: String?
    /// The stored profile to use for this run.
    public var profileName: String?

    public init(serverURL: String? = nil, apiKey: String? = nil, profileName: String? = nil) {
        self.serverURL = serverURL
        self.apiKey = apiKey
        self.profileName = profileName
    }

    public init(environment: [String: String]) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        serverURL = value("MAKIMA_SERVER_URL")
        apiKey = value("MAKIMA_API_KEY")
        profileName = value("MAKIMA_PROFILE")
    }

    public static var process: EnvironmentOverrides {
        EnvironmentOverrides(environment: ProcessInfo.processInfo.environment)
    }
}

/// The server and key a run will use.
public struct ResolvedSession: Sendable {
    /// nil when nothing is configured and no server was given.
    public var profile: ServerProfile?
    public var key: APIKey?
    public var keySource: KeySource?
    /// True when the profile is one from config.json (not made up for an override URL).
    public var profileIsStored: Bool
}

/// Decides which server and key to use: a profile named by `--profile` / `MAKIMA_PROFILE`, else
/// `--server` / `MAKIMA_SERVER_URL`, over the active profile; `MAKIMA_API_KEY` over the stored
/// key. A stored key is only ever sent to the server it was stored for: with an override URL
/// that matches no stored profile, the key must come from the environment.
public enum SessionResolver {
    public static func resolve(
        config: AppConfig, credentials: CredentialStore, environment: EnvironmentOverrides,
        serverOverride: String? = nil, allowInsecureHTTP: Bool = false, profileName: String? = nil
    ) throws -> ResolvedSession {
        var envKey: APIKey?
        if let raw = environment.apiKey {
            if let reason = APIKey.validationError(raw) { throw ConfigError.invalidEnvironmentKey(reason: reason) }
            envKey = APIKey(raw)
        }
        var profile: ServerProfile?
        var stored = false
        if let name = profileName ?? environment.profileName {
            if serverOverride != nil { throw ConfigError.profileAndServer }
            guard let named = config.profile(named: name) else {
                throw ConfigError.unknownProfile(name, known: config.profileNames)
            }
            profile = named
            stored = true
        } else if let raw = serverOverride ?? environment.serverURL {
            // Canonicalise first (insecure allowed) only to find a stored match; the http rule is
            // then applied with the match's own permission or the flag.
            let canonical = try ServerURL.normalizeTyped(raw, allowInsecureHTTP: true)
            if let match = config.profile(forBaseURL: canonical) {
                _ = try ServerURL.normalizeTyped(raw, allowInsecureHTTP: allowInsecureHTTP || match.allowInsecureHTTP)
                profile = match
                stored = true
            } else {
                profile = try ServerProfile(server: raw, allowInsecureHTTP: allowInsecureHTTP)
            }
        } else if let active = config.activeProfile {
            profile = active
            stored = true
        }
        if let envKey {
            return ResolvedSession(profile: profile, key: envKey, keySource: .environment, profileIsStored: stored)
        }
        if let p = profile, stored, let key = try credentials.key(for: p.credentialID) {
            return ResolvedSession(profile: profile, key: key, keySource: .stored, profileIsStored: stored)
        }
        return ResolvedSession(profile: profile, key: nil, keySource: nil, profileIsStored: stored)
    }
}
