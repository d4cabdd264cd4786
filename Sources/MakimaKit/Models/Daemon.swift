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

public struct Daemon: Decodable, Sendable, Equatable, Identifiable {
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

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = try c.id("id")
        hostname = c.text("hostname")
        status = DaemonStatus(rawValue: c.text("status") ?? "unknown")
        lastHeartbeat = c.date("last_heartbeat")
        version = c.text("version")
        runningTasks = c.int("running_tasks")
        maxConcurrentTasks = c.int("max_concurrent_tasks")
    }
}

extension Daemon: Encodable {
    /// The wire shape `init(from:)` reads (the cache stores models this way).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(id, forKey: AnyKey("id"))
        try c.encodeIfPresent(hostname, forKey: AnyKey("hostname"))
        try c.encode(status.rawValue, forKey: AnyKey("status"))
        try c.encodeIfPresent(lastHeartbeat.map(RFC3339.format), forKey: AnyKey("last_heartbeat"))
        try c.encodeIfPresent(version, forKey: AnyKey("version"))
        try c.encodeIfPresent(runningTasks, forKey: AnyKey("running_tasks"))
        try c.encodeIfPresent(maxConcurrentTasks, forKey: AnyKey("max_concurrent_tasks"))
    }
}
