import Foundation

/// An API key as the server lists it: never the secret, only its prefix.
public struct APIKeyInfo: WireModel, Sendable, Equatable, Identifiable {
    public var id: String
    public var prefix: String
    public var name: String?
    public var createdAt: Date?
    public var lastUsedAt: Date?

    public static let wireFields: [WireField<APIKeyInfo>] = [
        .id("id", \.id), .text("prefix", \.prefix), .text("name", \.name), .date("created_at", \.createdAt),
        .date("last_used_at", \.lastUsedAt),
    ]
    public static var wireBlank: APIKeyInfo { APIKeyInfo(id: "", prefix: "") }
}

/// The answer to `POST /auth/api-keys/refresh`: the new secret, shown once.
public struct RotatedKey: Decodable, Sendable {
    public var key: APIKey
    public var id: String?

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard let raw = try? c.decode(String.self, forKey: AnyKey("key")), let key = APIKey(raw) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath + [AnyKey("key")], debugDescription: "field 'key' must be an mk_ API key"))
        }
        self.key = key
        id = c.idIfPresent("id")
    }
}

/// `GET /health`.
public struct HealthStatus: Decodable, Sendable {
    public var status: String
    public var version: String?
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        status = c.text("status") ?? "unknown"
        version = c.text("version")
    }
}
