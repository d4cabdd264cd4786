import Foundation

/// One Makima server the user signs in to. Several can be stored (config.json holds a list);
/// one is active today.
///
/// `credentialID` names the key file and never changes after creation, so editing the label or
/// the URL keeps the key where it is. The profile holds no secret, so printing it is safe.
public struct ServerProfile: Codable, Sendable, Equatable, Identifiable, CustomStringConvertible {
    public var id: UUID
    public var label: String
    /// Canonical base URL (see `ServerURL.normalize`), e.g. `https://makima.jp`.
    public private(set) var baseURL: URL
    public var lastConnected: Date?
    public let credentialID: UUID
    /// The user explicitly allowed plain http:// to a non-loopback host.
    public private(set) var allowInsecureHTTP: Bool
    /// The profile's own colour (`ProfileAccent`): `#rrggbb` or a theme's name; nil: the theme's.
    public var accent: String?

    public init(
        id: UUID = UUID(), label: String? = nil, server: String, allowInsecureHTTP: Bool = false,
        lastConnected: Date? = nil, credentialID: UUID = UUID()
    ) throws(ServerURLError) {
        let url = try ServerURL.normalizeTyped(server, allowInsecureHTTP: allowInsecureHTTP)
        self.id = id
        self.baseURL = url
        self.label = label ?? ServerProfile.defaultLabel(for: url)
        self.lastConnected = lastConnected
        self.credentialID = credentialID
        self.allowInsecureHTTP = allowInsecureHTTP
    }

    /// Points the profile at another server; the id, label and credential id stay.
    public mutating func setServer(_ raw: String, allowInsecureHTTP: Bool) throws(ServerURLError) {
        baseURL = try ServerURL.normalizeTyped(raw, allowInsecureHTTP: allowInsecureHTTP)
        self.allowInsecureHTTP = allowInsecureHTTP
    }

    /// Records a successful connection, to the whole second (so it survives config.json as is).
    public mutating func markConnected(at date: Date = Date()) {
        lastConnected = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// `<base>/api/v1`.
    public var apiBaseURL: URL { baseURL.appendingPathComponent("api").appendingPathComponent("v1") }

    /// `ws(s)://<host>/…/api/v1/mesh/tasks/subscribe`: wss for https, ws for http.
    public var webSocketURL: URL {
        var comps = URLComponents(
            url: apiBaseURL.appendingPathComponent("mesh/tasks/subscribe"), resolvingAgainstBaseURL: false)!
        comps.scheme = baseURL.scheme == "http" ? "ws" : "wss"
        return comps.url!
    }

    /// Host (and port when not the default) for masthead and status lines.
    public var displayHost: String {
        var s = baseURL.host ?? baseURL.absoluteString
        if let p = baseURL.port { s += ":\(p)" }
        return s
    }

    /// What the masthead names: the host, and the profile's name before it when the profile
    /// was given one (`staging · makima.example`).
    public var mastheadLabel: String {
        label == ServerProfile.defaultLabel(for: baseURL) ? displayHost : "\(label) · \(displayHost)"
    }

    public var isLoopback: Bool { ServerURL.isLoopback(host: baseURL.host ?? "") }

    public var description: String {
        "ServerProfile(\(label), \(baseURL.absoluteString), credential \(credentialID.uuidString.prefix(8)))"
    }

    public static func defaultLabel(for url: URL) -> String {
        var s = url.host ?? url.absoluteString
        if let p = url.port { s += ":\(p)" }
        return s
    }

    // Stored as snake_case JSON in config.json.
    enum CodingKeys: String, CodingKey {
        case id, label
        case baseURL = "base_url"
        case lastConnected = "last_connected"
        case credentialID = "credential_id"
        case allowInsecureHTTP = "allow_insecure_http"
        case accent
    }

    /// Re-validates the stored URL, so a hand-edited config.json cannot smuggle in junk or a
    /// plain-http remote host that was never allowed.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        credentialID = try c.decode(UUID.self, forKey: .credentialID)
        allowInsecureHTTP = try c.decodeIfPresent(Bool.self, forKey: .allowInsecureHTTP) ?? false
        let raw = try c.decode(String.self, forKey: .baseURL)
        do {
            baseURL = try ServerURL.normalize(raw, allowInsecureHTTP: allowInsecureHTTP)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .baseURL, in: c, debugDescription: error.description)
        }
        // config.json can be edited by hand: the label (the profile's name, shown in the masthead
        // and by `profiles`) is cleaned like server text as it is read.
        label = UntrustedText.clean(
            try c.decodeIfPresent(String.self, forKey: .label) ?? ServerProfile.defaultLabel(for: baseURL))
        // A name is completed by shells and typed after --profile: one that breaks the rules
        // (`$(…)`, spaces, quotes) is refused here, not handed to a completion script.
        if label != ServerProfile.defaultLabel(for: baseURL), let problem = ProfileName.problem(label) {
            throw DecodingError.dataCorruptedError(
                forKey: .label, in: c,
                debugDescription:
                    "the profile for \(baseURL.absoluteString) is named \(label.debugDescription): \(problem)")
        }
        lastConnected = try c.decodeIfPresent(Date.self, forKey: .lastConnected)
        accent = try c.decodeIfPresent(String.self, forKey: .accent)
        if let accent, let problem = ProfileAccent.problem(accent) {
            throw DecodingError.dataCorruptedError(
                forKey: .accent, in: c,
                debugDescription: "the profile \(label) has the accent \(accent.debugDescription): \(problem)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(label, forKey: .label)
        try c.encode(baseURL.absoluteString, forKey: .baseURL)
        try c.encodeIfPresent(lastConnected, forKey: .lastConnected)
        try c.encode(credentialID, forKey: .credentialID)
        try c.encode(allowInsecureHTTP, forKey: .allowInsecureHTTP)
        try c.encodeIfPresent(accent, forKey: .accent)
    }
}
