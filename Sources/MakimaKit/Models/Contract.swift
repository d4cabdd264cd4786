import Foundation

public struct ContractStatus: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }
    public static let active = ContractStatus(rawValue: "active")
    public static let completed = ContractStatus(rawValue: "completed")
    public static let archived = ContractStatus(rawValue: "archived")
}

public struct Contract: WireModel, Sendable, Equatable, Identifiable {
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

    public static let wireFields: [WireField<Contract>] = [
        .id("id", \.id), .text("name", \.name, otherwise: \.id), .text("phase", \.phase), .status("status", \.status),
        .bool("autonomous_loop", \.autonomousLoop), .text("description", \.description),
        .date("created_at", \.createdAt), .date("updated_at", \.updatedAt),
    ]
    public static var wireBlank: Contract {
        Contract(id: "", name: "", phase: "unknown", status: ContractStatus(rawValue: "unknown"))
    }
}
