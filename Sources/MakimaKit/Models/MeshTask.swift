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
    /// Not said by the server: a task a status-filtered list stopped holding, until a list
    /// that holds it says what it is now (the cache's task table).
    public static let unknown = TaskStatus(rawValue: "unknown")
    /// A final status: the task will emit no more output.
    public var isFinal: Bool { self == .completed || self == .failed || self == .cancelled }
}

/// A task on the mesh (named `MeshTask` so it never shadows Swift's `Task`).
public struct MeshTask: WireModel, Sendable, Equatable, Identifiable {
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

    public static let wireFields: [WireField<MeshTask>] = [
        .id("id", \.id), .id("contract_id", \.contractID), .id("parent_id", \.parentID), .text("title", \.title),
        .text("plan", \.plan), .status("status", \.status), .id("daemon_id", \.daemonID),
        .date("created_at", \.createdAt), .date("updated_at", \.updatedAt), .date("completed_at", \.completedAt),
    ]
    public static var wireBlank: MeshTask { MeshTask(id: "", status: TaskStatus(rawValue: "unknown")) }

    /// Known by its id alone: a row made from an event before the task was fetched.
    public var isUnnamed: Bool { (title ?? "").isEmpty && plan.isEmpty }

    /// The title column of a row: `displayTitle`, or for a task known by its id alone
    /// `loading… c2b961e9` (the first eight of its id) while its fetch is under way, and
    /// `not on the server · c2b961e9` once the server answered 404.
    public func rowTitle(notFound: Bool) -> String {
        guard isUnnamed else { return displayTitle }
        return (notFound ? "not on the server · " : "loading… ") + id.prefix(8)
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
