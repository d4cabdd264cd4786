import Foundation

/// A status string from the server. Known values have names; unknown ones are kept as they came.
public struct DaemonStatus: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.lowercased() }
    public static let online = DaemonStatus(rawValue: "online")
    public static let offline = DaemonStatus(rawValue: "offline")
    public static let busy = DaemonStatus(rawValue: "busy")
    /// Busy daemons are connected; anything else unknown counts as not online.
    public var isOnline: Bool { self == .online || self == .busy }
}

public struct Daemon: WireModel, Sendable, Equatable, Identifiable {
    public var id: String
    public var hostname: String?
    public var status: DaemonStatus
    public var lastHeartbeat: Date?
    public var version: String?
    public var runningTasks: Int?
    public var maxConcurrentTasks: Int?

    public init(
        id: String, hostname: String? = nil, status: DaemonStatus, lastHeartbeat: Date? = nil,
        version: String? = nil, runningTasks: Int? = nil, maxConcurrentTasks: Int? = nil
    ) {
        self.id = id
        self.hostname = hostname
        self.status = status
        self.lastHeartbeat = lastHeartbeat
        self.version = version
        self.runningTasks = runningTasks
        self.maxConcurrentTasks = maxConcurrentTasks
    }

    public static let wireFields: [WireField<Daemon>] = [
        .id("id", \.id), .text("hostname", \.hostname), .status("status", \.status),
        .date("last_heartbeat", \.lastHeartbeat), .text("version", \.version), .int("running_tasks", \.runningTasks),
        .int("max_concurrent_tasks", \.maxConcurrentTasks),
    ]
    public static var wireBlank: Daemon { Daemon(id: "", status: DaemonStatus(rawValue: "unknown")) }
}
