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

    /// Writes a fresh list. A full disk is reported (the caller shows it), never fatal.
    public func store(_ query: ListQuery, _ payload: ListPayload, fetchedAt: Date) throws(CacheError) {
        let key = query.description
        switch payload {
        case .daemons(let d): try cache.replaceDaemons(d, fetchedAt: fetchedAt, query: key)
        case .contracts(let c): try cache.replaceContracts(c, fetchedAt: fetchedAt, query: key)
        case .tasks(let t): try cache.replaceTasks(t, fetchedAt: fetchedAt, query: key)
        case .directives(let d): try cache.replaceDirectives(d, fetchedAt: fetchedAt, query: key)
        case .listenSessions(let s): try cache.replaceListenSessions(s, fetchedAt: fetchedAt, query: key)
        }
    }

    private func load(_ q: ListQuery) throws(CacheError) -> (ListPayload, Date)? {
        let key = q.description
        switch q {
        case .daemons: return try cache.loadDaemons(query: key).map { (.daemons($0.items), $0.fetchedAt) }
        case .contracts: return try cache.loadContracts(query: key).map { (.contracts($0.items), $0.fetchedAt) }
        case .tasks: return try cache.loadTasks(query: key).map { (.tasks($0.items), $0.fetchedAt) }
        case .directives: return try cache.loadDirectives(query: key).map { (.directives($0.items), $0.fetchedAt) }
        case .listenSessions:
            return try cache.loadListenSessions(query: key).map { (.listenSessions($0.items), $0.fetchedAt) }
        }
    }
}

extension CacheBridge {
    /// The Home numbers from the cache alone (no network), with the age of the oldest part;
    /// nil when nothing was ever cached for this server.
    public func cachedSummary() -> (summary: MeshSummary, oldest: Date)? {
        var daemons: [Daemon] = []
        var running: [MeshTask] = []
        var contracts: [Contract] = []
        var directives: [Directive] = []
        var sessions: [ListenSession] = []
        var oldest: Date?
        for case .list(_, let payload, let at, _) in cachedUpdates(for: Self.homeQueries).updates {
            oldest = min(oldest ?? at, at)
            switch payload {
            case .daemons(let d): daemons = d
            case .tasks(let t): running = t
            case .contracts(let c): contracts = c
            case .directives(let d): directives = d
            case .listenSessions(let s): sessions = s
            }
        }
        guard let oldest else { return nil }
        return (
            MeshSummary(
                daemons: daemons, runningTasks: running, contracts: contracts, pendingDirectives: directives,
                listenSessions: sessions), oldest
        )
    }

    /// The lists `status` and Home need, in one place so `watch` and the dashboard agree.
    public static let homeQueries: [ListQuery] = [
        .daemons, .tasks(status: .running, contractID: nil), .contracts(status: nil),
        .directives(pendingOnly: true), .listenSessions(limit: 1),
    ]
}
