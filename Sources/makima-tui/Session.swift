import MakimaKit
import MakimaTUI

/// Turns the global options and the environment into an API client, or a clear error.
enum Session {
    static func location(_ global: GlobalOptions) -> ConfigLocation {
        ConfigLocation.resolve(explicit: global.configDir)
    }

    static func client(_ global: GlobalOptions) throws -> APIClient { try credentials(global).client }

    /// The client and the key itself (the WebSocket needs it for its upgrade request).
    static func credentials(_ global: GlobalOptions) throws -> (client: APIClient, key: APIKey) {
        let (_, profile, key) = try resolve(global)
        return (APIClient(profile: profile, key: key), key)
    }

    /// What the dashboard runs against: the client, where the key came from, and the cache of
    /// this profile (its credential id when stored, else one derived from the server URL).
    static func liveAccess(_ global: GlobalOptions) throws -> LiveSetup.Access {
        let (resolved, profile, key) = try resolve(global)
        let cacheKey = CacheSession.key(for: profile)
        let source = resolved.keySource == .environment ? "from MAKIMA_API_KEY" : "stored"
        return .configured(
            client: APIClient(profile: profile, key: key), key: key, keySource: source, cacheKey: cacheKey)
    }

    private static func resolve(_ global: GlobalOptions) throws -> (ResolvedSession, ServerProfile, APIKey) {
        let location = location(global)
        let config = try ConfigStore(location: location).load()
        let resolved = try SessionResolver.resolve(
            config: config, credentials: CredentialStore(location: location),
            environment: .process, serverOverride: global.server,
            allowInsecureHTTP: global.allowInsecureHTTP, profileName: global.profile)
        guard let profile = resolved.profile else { throw ConfigError.notConfigured }
        guard let key = resolved.key else { throw ConfigError.noKeyForServer(profile.baseURL.absoluteString) }
        return (resolved, profile, key)
    }
}
