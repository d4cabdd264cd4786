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

/// Where a kind of list keeps its snapshots: a row per item (collection key, position, id,
/// JSON) in the table every kind shares, `list_items`, with the kind's name. (Tasks keep no
/// snapshots: one row per task in the task table, `TaskRows`.) A collection key is the
/// collection's name plus the query it was fetched with: `contracts`,
/// `contracts?status=active`.
public struct CacheCollection: Sendable, Hashable {
    /// The collection keys' prefix, and the rows' `kind` in `list_items`.
    public let name: String

    /// A kind's rows in `list_items`.
    public static func shared(_ name: String) -> CacheCollection { CacheCollection(name: name) }

    public static let daemons = shared("daemons")
    public static let contracts = shared("contracts")
    public static let directives = shared("directives")
    public static let listenSessions = shared("listen_sessions")

    public func key(query: String = "") -> String { query.isEmpty ? name : "\(name)?\(query)" }
}
