import Foundation

/// One kind of list, described once: its item type, the cache table that keeps its
/// snapshots, and the store slot that shows it. `ListQuery.route` says which resource a query
/// reads and from which endpoint; everything else (the sync engine's fetch, the cache bridge,
/// `StoreHub.apply`) goes through this description instead of switching over the kinds.
public struct ListResource<Item: Codable & Sendable & Identifiable>: Sendable where Item.ID == String {
    /// The cache table holding this kind's snapshots (one collection per query).
    public let cache: CacheCollection
    /// The list state a query is filed under, handed to `change` (UI thread).
    let slot: @MainActor @Sendable (StoreHub, ListQuery, (inout ListState<Item>) -> Void) -> Void

    init(
        cache: CacheCollection,
        slot: @escaping @MainActor @Sendable (StoreHub, ListQuery, (inout ListState<Item>) -> Void) -> Void
    ) {
        self.cache = cache
        self.slot = slot
    }
}

/// A `ListResource` whatever its item type: what the engine, the cache and the hub call.
public protocol AnyListResource: Sendable {
    /// Every page of the query's list (see `ListPager`), each handed to `sink` as it arrives;
    /// returns what the sink gives at the end.
    func fetch(_ query: ListQuery, maxBytes: Int, with client: APIClient, into sink: any ListSink) throws
        -> ListPayload
    /// This kind's default sink: the pages gathered, handed over whole (`ListCollector`).
    func collector() -> any ListSink
    func store(_ payload: ListPayload, in cache: CacheStore, query: String, fetchedAt: Date) throws(CacheError)
    func load(from cache: CacheStore, query: String) throws(CacheError) -> (ListPayload, Date)?
    @MainActor func apply(_ payload: ListPayload, to hub: StoreHub, query: ListQuery, fetchedAt: Date, fromCache: Bool)
        -> Bool
    @MainActor func mark(_ hub: StoreHub, query: ListQuery, _ change: (inout ListStateAny) -> Void)
}

extension ListResource: AnyListResource {
    public func fetch(_ query: ListQuery, maxBytes: Int, with client: APIClient, into sink: any ListSink) throws
        -> ListPayload
    {
        let pager = try client.listPagesBlocking(
            Item.self, query.route.endpoint, maxPages: query.maxPages, maxBytes: maxBytes
        ) { added, pager in
            sink.take(
                ListPage(
                    query: query, items: ListPayload(added), number: pager.pages, received: pager.received,
                    more: pager.next != nil))
        }
        return sink.end(query, bound: pager.bound)
    }

    public func collector() -> any ListSink { ListCollector<Item>() }

    public func store(_ payload: ListPayload, in cache: CacheStore, query: String, fetchedAt: Date) throws(CacheError) {
        guard let items = payload.items(as: Item.self) else { return }
        try cache.replace(items, in: self.cache, query: query, fetchedAt: fetchedAt)
    }

    public func load(from cache: CacheStore, query: String) throws(CacheError) -> (ListPayload, Date)? {
        try cache.load(Item.self, from: self.cache, query: query).map { (ListPayload($0.items), $0.fetchedAt) }
    }

    /// Files `payload` under the query's slot; false when the payload holds other items.
    @MainActor
    public func apply(_ payload: ListPayload, to hub: StoreHub, query: ListQuery, fetchedAt: Date, fromCache: Bool)
        -> Bool
    {
        guard let items = payload.items(as: Item.self) else { return false }
        slot(hub, query) { state in
            // A cache snapshot never overwrites data the server already gave this session.
            if fromCache && state.hasLoaded && !state.isStale { return }
            state.succeed(items, at: fetchedAt)
            state.bound = payload.bound
            state.isStale = fromCache
        }
        return true
    }

    @MainActor
    public func mark(_ hub: StoreHub, query: ListQuery, _ change: (inout ListStateAny) -> Void) {
        slot(hub, query) { ListStateAny.mutate(&$0, change) }
    }
}

/// A list result; its items keep their type (`items(as:)` gives them back).
public struct ListPayload: Sendable {
    private let storage: any Sendable
    public let count: Int
    /// Why the list was cut short (`ListPager`), nil when it is whole.
    public let bound: ListBound?

    public init<Item: Sendable>(_ items: [Item], bound: ListBound? = nil) {
        storage = items
        count = items.count
        self.bound = bound
    }

    public func items<Item>(as type: Item.Type) -> [Item]? { storage as? [Item] }

    public static func daemons(_ items: [Daemon]) -> ListPayload { ListPayload(items) }
    public static func contracts(_ items: [Contract]) -> ListPayload { ListPayload(items) }
    public static func tasks(_ items: [MeshTask]) -> ListPayload { ListPayload(items) }
    public static func directives(_ items: [Directive]) -> ListPayload { ListPayload(items) }
    public static func listenSessions(_ items: [ListenSession]) -> ListPayload { ListPayload(items) }
}

/// The item-independent part of a ListState, so failure/loading marks need no per-type code.
public struct ListStateAny {
    var isLoading: Bool
    var lastError: String?
    var received: Int?
    mutating func fail(_ message: String) {
        isLoading = false
        lastError = message
        received = nil
    }
    mutating func setLoading() { isLoading = true }

    static func mutate<T>(_ state: inout ListState<T>, _ change: (inout ListStateAny) -> Void) {
        var any = ListStateAny(isLoading: state.isLoading, lastError: state.lastError, received: state.received)
        change(&any)
        state.isLoading = any.isLoading
        state.lastError = any.lastError
        state.received = any.received
    }
}
