import MakimaKit

/// Turns the global options and the environment into an API client, or a clear error.
enum Session {
    static func location(_ global: GlobalOptions) -> ConfigLocation {
        ConfigLocation.resolve(explicit: global.configDir)
    }

    static func client(_ global: GlobalOptions) throws -> APIClient { try credentials(global).client }

    /// The client and the key itself (the WebSocket needs it for its upgrade request).
    static func credentials(_ global: GlobalOptions) throws -> (client: APIClient, key: APIKey) {
        let location = location(global)
        let config = try ConfigStore(location: location).load()
        let resolved = try SessionResolver.resolve(config: config, credentials: CredentialStore(location: location),
                                                   environment: .process, serverOverride: global.server,
                                                   allowInsecureHTTP: global.allowInsecureHTTP)
        guard let profile = resolved.profile else { throw ConfigError.notConfigured }
        guard let key = resolved.key else { throw ConfigError.noKeyForServer(profile.baseURL.absoluteString) }
        return (APIClient(profile: profile, key: key), key)
    }
}
