import Foundation

/// Moves list snapshots between the SQLite cache and the stores' `SyncUpdate`s: at start-up
/// the stores fill from the cache (marked stale), and every fresh list is written back.
public struct CacheBridge: Sendable {
    public let cache: CacheStore

    public init(cache: CacheStore) { self.cache = cache }

    /// The queries the panes use; their cached snapshots paint the first frame.
    public static let standardQueries: [ListQuery] = [
        .daemons, .contracts(status: nil), .contracts(status: .active), .contracts(status: .completed),
        .contracts(status: .archived), .tasks(status: nil, contractID: nil), .tasks(status: .running, contractID: nil),
        .homeRecentTasks,
        .directives(pendingOnly: false), .directives(pendingOnly: true), .listenSessions(limit: nil),
        .listenSessions(limit: 1),
    ]

    /// Cached snapshots as updates; a query never fetched is left out. Read errors leave the
    /// stores empty (the network fills them) and come back as one notice.
    public func cachedUpdates(for queries: [ListQuery] = standardQueries) -> (updates: [SyncUpdate], problem: String?) {
        var updates: [SyncUpdate] = []
        var problem: String?
        for q in queries {
            do {
                if let (payload, at) = try load(q) { updates.append(.list(q, payload, fetchedAt: at, fromCache: true)) }
            } catch {
                problem = "cache could not be read: \(error)"
            }
        }
        return (updates, problem)
    }

    /// Writes a fresh list through its kind. A full disk is reported (the caller shows it),
    /// never fatal.
    public func store(_ query: ListQuery, _ payload: ListPayload, fetchedAt: Date) throws(CacheError) {
        try query.kind.store(payload, in: cache, query: query, fetchedAt: fetchedAt)
    }

    private func load(_ q: ListQuery) throws(CacheError) -> (ListPayload, Date)? {
        try q.kind.load(from: cache, query: q)
    }
}

extension CacheBridge {
    /// The Home numbers from the cache alone (no network), counted by the same rule as the
    /// dashboard, with the age of the oldest part; nil when nothing was ever cached.
    @MainActor
    public func cachedSummary() -> (summary: MeshSummary, oldest: Date)? {
        let hub = StoreHub()
        hub.tasks.useTable(TaskTable.reading(cache.file))
        defer { hub.tasks.useTable(TaskTable.inMemory()) }
        var oldest: Date?
        for update in cachedUpdates(for: MeshSummary.queries).updates {
            if case .list(_, _, let at, _) = update { oldest = min(oldest ?? at, at) }
            hub.apply(update)
        }
        guard let oldest else { return nil }
        return (MeshSummary(hub), oldest)
    }
}
