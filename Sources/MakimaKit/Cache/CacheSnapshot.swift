import Foundation

/// A cached list as it was last fetched.
public struct CacheSnapshot<Item: Sendable>: Sendable {
    public var items: [Item]
    /// When the list was fetched from the server: the UI shows its age and marks it stale.
    public var fetchedAt: Date
    /// Stored rows that could no longer be decoded (left out of `items`).
    public var skipped: Int

    public func age(now: Date = Date()) -> TimeInterval { now.timeIntervalSince(fetchedAt) }
}

/// One cached item with its fetch time.
public struct CachedValue<Value: Sendable>: Sendable {
    public var value: Value
    public var fetchedAt: Date
}

/// The lists the cache keeps, one table each. A collection key is the table name plus the
/// query it was fetched with: `tasks`, `tasks?status=running`.
public enum CacheCollection: String, Sendable, CaseIterable {
    case daemons, contracts, tasks, directives
    case listenSessions = "listen_sessions"

    public func key(query: String = "") -> String { query.isEmpty ? rawValue : "\(rawValue)?\(query)" }
}
