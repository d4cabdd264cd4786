import Foundation

/// An API key as the server lists it: never the secret, only its prefix.
public struct APIKeyInfo: Decodable, Sendable, Equatable, Identifiable {
    public var id: String
    public var prefix: String
    public var name: String?
    public var createdAt: Date?
    public var lastUsedAt: Date?

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = try c.id("id")
        prefix = c.text("prefix") ?? ""
        name = c.text("name")
        createdAt = c.date("created_at")
        lastUsedAt = c.date("last_used_at")
    }
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
