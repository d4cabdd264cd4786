import Foundation

public struct TaskStatus: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }
    public static let pending = TaskStatus(rawValue: "pending")
    public static let queued = TaskStatus(rawValue: "queued")
    public static let running = TaskStatus(rawValue: "running")
    public static let completed = TaskStatus(rawValue: "completed")
    public static let failed = TaskStatus(rawValue: "failed")
    public static let cancelled = TaskStatus(rawValue: "cancelled")
    /// A final status: the task will emit no more output.
    public var isFinal: Bool { self == .completed || self == .failed || self == .cancelled }
}

/// A task on the mesh (named `MeshTask` so it never shadows Swift's `Task`).
public struct MeshTask: Decodable, Sendable, Equatable, Identifiable {
    public var id: String
    public var contractID: String?
    public var parentID: String?
    public var title: String?
    public var plan: String
    public var status: TaskStatus
    public var daemonID: String?
    public var createdAt: Date?
    public var updatedAt: Date?
    public var completedAt: Date?

    public init(
        id: String, contractID: String? = nil, parentID: String? = nil, title: String? = nil, plan: String = "",
        status: TaskStatus, daemonID: String? = nil, createdAt: Date? = nil, updatedAt: Date? = nil,
        completedAt: Date? = nil
    ) {
        self.id = id
        self.contractID = contractID
        self.parentID = parentID
        self.title = title
        self.plan = plan
        self.status = status
        self.daemonID = daemonID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.completedAt = completedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = try c.id("id")
        contractID = c.idIfPresent("contract_id")
        parentID = c.idIfPresent("parent_id")
        title = c.text("title")
        plan = c.text("plan") ?? ""
        status = TaskStatus(rawValue: c.text("status") ?? "unknown")
        daemonID = c.idIfPresent("daemon_id")
        createdAt = c.date("created_at")
        updatedAt = c.date("updated_at")
        completedAt = c.date("completed_at")
    }

    /// What to call the task on screen: its title, else the first line of its plan, else its id.
    public var displayTitle: String {
        if let t = title, !t.isEmpty { return t }
        if let line = plan.split(separator: "\n").first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            return line.trimmingCharacters(in: CharacterSet(charactersIn: "# ").union(.whitespaces))
        }
        return id
    }
}

extension MeshTask: Encodable {
    /// The wire shape `init(from:)` reads (the cache stores models this way).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(id, forKey: AnyKey("id"))
        try c.encodeIfPresent(contractID, forKey: AnyKey("contract_id"))
        try c.encodeIfPresent(parentID, forKey: AnyKey("parent_id"))
        try c.encodeIfPresent(title, forKey: AnyKey("title"))
        try c.encode(plan, forKey: AnyKey("plan"))
        try c.encode(status.rawValue, forKey: AnyKey("status"))
        try c.encodeIfPresent(daemonID, forKey: AnyKey("daemon_id"))
        try c.encodeIfPresent(createdAt.map(RFC3339.format), forKey: AnyKey("created_at"))
        try c.encodeIfPresent(updatedAt.map(RFC3339.format), forKey: AnyKey("updated_at"))
        try c.encodeIfPresent(completedAt.map(RFC3339.format), forKey: AnyKey("completed_at"))
    }
}
