import Foundation

public struct ContractStatus: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }
    public static let active = ContractStatus(rawValue: "active")
    public static let completed = ContractStatus(rawValue: "completed")
    public static let archived = ContractStatus(rawValue: "archived")
}

public struct Contract: Decodable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var phase: String
    public var status: ContractStatus
    public var autonomousLoop: Bool
    public var description: String?
    public var createdAt: Date?
    public var updatedAt: Date?

    public init(
        id: String, name: String, phase: String, status: ContractStatus, autonomousLoop: Bool = false,
        description: String? = nil, createdAt: Date? = nil, updatedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.phase = phase
        self.status = status
        self.autonomousLoop = autonomousLoop
        self.description = description
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = try c.id("id")
        name = c.text("name") ?? id
        phase = c.text("phase") ?? "unknown"
        status = ContractStatus(rawValue: c.text("status") ?? "unknown")
        autonomousLoop = c.bool("autonomous_loop") ?? false
        description = c.text("description")
        createdAt = c.date("created_at")
        updatedAt = c.date("updated_at")
    }
}

extension Contract: Encodable {
    /// The wire shape `init(from:)` reads (the cache stores models this way).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(id, forKey: AnyKey("id"))
        try c.encode(name, forKey: AnyKey("name"))
        try c.encode(phase, forKey: AnyKey("phase"))
        try c.encode(status.rawValue, forKey: AnyKey("status"))
        try c.encode(autonomousLoop, forKey: AnyKey("autonomous_loop"))
        try c.encodeIfPresent(description, forKey: AnyKey("description"))
        try c.encodeIfPresent(createdAt.map(RFC3339.format), forKey: AnyKey("created_at"))
        try c.encodeIfPresent(updatedAt.map(RFC3339.format), forKey: AnyKey("updated_at"))
    }
}
