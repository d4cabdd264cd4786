import Foundation

/// What the list queries are: the cache keys collections by it, the refresh coordinator
/// de-duplicates in-flight requests by it, and the stores file results under it.
public enum ListQuery: Hashable, Sendable, CustomStringConvertible {
    case daemons
    case contracts(status: ContractStatus?)
    case tasks(status: TaskStatus?, contractID: String?)
    /// The newest `limit` tasks, one page (Home's recent tasks: a large mesh's every task would
    /// be read, cached and sorted to show a few).
    case recentTasks(limit: Int)
    case directives(pendingOnly: Bool)
    case listenSessions(limit: Int?)

    /// The one place a query meets its resource (item type, cache table, store slot) and the
    /// endpoint that answers it. Adding a kind of list means a case here and an entry in
    /// `ListResources`.
    public var route: (resource: any AnyListResource, endpoint: Endpoint) {
        switch self {
        case .daemons: return (ListResources.daemons, .daemons)
        case .contracts(let s): return (ListResources.contracts, .contracts(status: s))
        case .tasks(let s, let c):
            return (ListResources.tasks, .tasks(status: s, contractID: c, limit: ListPaging.pageSize))
        case .recentTasks(let l): return (ListResources.tasks, .tasks(status: nil, contractID: nil, limit: l))
        case .directives(let p): return (ListResources.directives, .directives(pending: p ? true : nil))
        case .listenSessions(let l): return (ListResources.listenSessions, .listenSessions(limit: l))
        }
    }

    public var resource: any AnyListResource { route.resource }

    /// Home's recent tasks card: the newest dozen (as many rows as a Home card is given).
    public static let homeRecentTasks = ListQuery.recentTasks(limit: 12)

    /// How many pages a fetch reads: a list asked for with its own limit is one page, the
    /// others are read whole (within `ListPaging`'s bounds), so counts made from them are right.
    public var maxPages: Int {
        switch self {
        case .listenSessions(limit: .some), .recentTasks: return 1
        default: return ListPaging.maxPages
        }
    }

    /// The task list a query names, as a filter over the task table; nil for other kinds.
    public var taskFilter: TasksStore.Filter? {
        switch self {
        case .tasks(let status, let contractID): return TasksStore.Filter(status: status, contractID: contractID)
        case .recentTasks(let limit): return TasksStore.Filter(limit: limit)
        default: return nil
        }
    }

    /// The cache key of the query's snapshot: its endpoint path and the parameters sent.
    public var description: String {
        switch self {
        case .daemons: return "daemons"
        case .contracts(let s): return "contracts?status=\(s?.rawValue ?? "")"
        case .tasks(let s, let c): return "tasks?status=\(s?.rawValue ?? "")&contract_id=\(c ?? "")"
        case .recentTasks(let l): return "tasks?limit=\(l)"
        case .directives(let p): return "directives?pending=\(p)"
        case .listenSessions(let l): return "listen?limit=\(l.map(String.init) ?? "")"
        }
    }
}

/// The registry of list kinds: where each one's items live in the cache and in the stores.
public enum ListResources {
    public static let daemons = ListResource<Daemon>(cache: .daemons) { hub, _, change in change(&hub.daemons.list) }

    public static let contracts = ListResource<Contract>(cache: .contracts) { hub, query, change in
        guard case .contracts(let status) = query else { return }
        var l = hub.contracts.list(status)
        change(&l)
        hub.contracts.lists[status] = l
    }

    /// Task lists are queries over the task table (`TaskRows`): `CacheBridge` saves and reads
    /// them there, and the store keeps only each list's state (`TasksStore.file`).
    public static let tasks = ListResource<MeshTask>(cache: .tasks) { hub, query, change in
        guard let f = query.taskFilter else { return }
        hub.tasks.file(f, change)
    }

    public static let directives = ListResource<Directive>(cache: .directives) { hub, query, change in
        if case .directives(pendingOnly: true) = query {
            change(&hub.directives.pending)
        } else {
            change(&hub.directives.list)
        }
    }

    public static let listenSessions = ListResource<ListenSession>(cache: .listenSessions) { hub, query, change in
        if case .listenSessions(limit: 1) = query { change(&hub.listen.latest) } else { change(&hub.listen.list) }
    }
}
