import Foundation

/// The contents of `config.json`: a list of profiles (one active today, several later without
/// a migration), the active profile's id, and free-form settings (theme, …). No secrets.
public struct AppConfig: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    public var version: Int
    public var activeProfileID: UUID?
    public var profiles: [ServerProfile]
    /// Unknown settings are kept as they are, so an older build never drops a newer one's.
    public var settings: [String: JSONValue]

    public init(activeProfileID: UUID? = nil, profiles: [ServerProfile] = [], settings: [String: JSONValue] = [:]) {
        self.version = AppConfig.currentVersion
        self.activeProfileID = activeProfileID
        self.profiles = profiles
        self.settings = settings
    }

    public var activeProfile: ServerProfile? {
        guard let id = activeProfileID else { return nil }
        return profiles.first { $0.id == id }
    }

    public var theme: String? {
        get { settings["theme"]?.stringValue }
        set { settings["theme"] = newValue.map(JSONValue.string) }
    }

    /// Whether the dashboard asks the terminal for mouse reports (nil: yes).
    public var mouse: Bool? {
        get { settings["mouse"]?.boolValue }
        set { settings["mouse"] = newValue.map(JSONValue.bool) }
    }

    /// Inserts or replaces the profile with the same id.
    public mutating func upsert(_ profile: ServerProfile) {
        if let i = profiles.firstIndex(where: { $0.id == profile.id }) {
            profiles[i] = profile
        } else {
            profiles.append(profile)
        }
    }

    public func profile(forBaseURL url: URL) -> ServerProfile? {
        profiles.first { $0.baseURL == url }
    }

    enum CodingKeys: String, CodingKey {
        case version, profiles, settings
        case activeProfileID = "active_profile_id"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? AppConfig.currentVersion
        activeProfileID = try c.decodeIfPresent(UUID.self, forKey: .activeProfileID)
        profiles = try c.decodeIfPresent([ServerProfile].self, forKey: .profiles) ?? []
        settings = try c.decodeIfPresent([String: JSONValue].self, forKey: .settings) ?? [:]
    }
}
