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
/// JSON) in the table every kind shares, `list_items`, with the kind's name; tasks keep a
/// table of their own of the same shape (found by id, indexed for search). A collection key
/// is the collection's name plus the query it was fetched with: `tasks`,
/// `tasks?status=running`.
public struct CacheCollection: Sendable, Hashable {
    /// The table every kind's snapshots share unless it names its own.
    static let sharedTable = "list_items"

    /// The collection keys' prefix, and the rows' `kind` in the shared table.
    public let name: String
    /// The table holding the snapshots.
    let table: String

    /// A kind's rows in the shared table.
    public static func shared(_ name: String) -> CacheCollection {
        CacheCollection(name: name, table: sharedTable)
    }

    public static let daemons = shared("daemons")
    public static let contracts = shared("contracts")
    public static let directives = shared("directives")
    public static let listenSessions = shared("listen_sessions")
    public static let tasks = CacheCollection(name: "tasks", table: "tasks")

    var isShared: Bool { table == Self.sharedTable }

    public func key(query: String = "") -> String { query.isEmpty ? name : "\(name)?\(query)" }
}
