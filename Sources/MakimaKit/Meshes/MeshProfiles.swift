import Foundation

/// The stored profiles as the meshes views list them: `status --all`, the MESHES// card and
/// Settings › PROFILES. A profile's reads use that profile's own stored key and go to that
/// profile's own server: never `MAKIMA_API_KEY` (one key from the environment must not reach
/// every server) and never another profile's key.
public struct MeshProfile: Sendable, Equatable {
    public var profile: ServerProfile
    /// Whether a key is stored for it (a profile without one is listed, never read).
    public var keyStored: Bool

    public init(profile: ServerProfile, keyStored: Bool) {
        self.profile = profile
        self.keyStored = keyStored
    }

    /// The profile's name (cleaned when config.json was read).
    public var name: String { profile.label }
    public var server: String { profile.baseURL.absoluteString }
}

public enum MeshProfiles {
    /// Every stored profile, in the config's order, and whether its key file is there.
    public static func load(_ location: ConfigLocation) throws -> [MeshProfile] {
        let config = try ConfigStore(location: location).load()
        let credentials = CredentialStore(location: location)
        return config.profiles.map { p in
            MeshProfile(
                profile: p, keyStored: FileManager.default.fileExists(atPath: credentials.path(for: p.credentialID)))
        }
    }

    /// A client for `profile` with its own stored key (`ConfigError.noKeyForServer` without one).
    public static func client(
        for profile: ServerProfile, credentials: CredentialStore, transport: HTTPTransport = HTTPTransport()
    ) throws -> APIClient {
        guard let key = try credentials.key(for: profile.credentialID) else {
            throw ConfigError.noKeyForServer(profile.baseURL.absoluteString)
        }
        return APIClient(profile: profile, key: key, transport: transport)
    }
}
