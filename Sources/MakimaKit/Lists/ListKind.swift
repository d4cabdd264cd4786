import Foundation

/// The kinds of list the dashboard knows, one static entry each (`ListKinds.daemons`, …), each
/// in its own file under `Lists/Kinds` with its queries and its store's conveniences.
public enum ListKinds {}

/// One kind of list, described once: its endpoint and item type (how it is fetched and
/// decoded), its rows in the cache (`CacheCollection`: snapshots in the shared table unless
/// it keeps rows of its own, `CustomListCache`), its refresh period, the filters a pane steps
/// through, and the store that shows it (a keyed `ListStore` made by the hub, unless the kind
/// names a store of its own). A deep link that names one of its items has a `DeepLink.Kind`
/// declared beside it, which points here. The sync engine's fetch (`MeshFetcher`), the cache
/// (`CacheBridge`), `RefreshPolicy` and `StoreHub` go through the kind a query (or a link)
/// carries instead of switching over the kinds.
public struct ListKind<Item: Codable & Sendable & Identifiable>: Sendable where Item.ID == String {
    /// Unique among the kinds: the key of its store in the hub.
    public let name: String
    /// The endpoint's path under the API base (`["mesh", "daemons"]`).
    public let path: [String]
    /// The page size sent when a fetch reads every page (nil: the server's default).
    public let pageLimit: Int?
    /// Seconds a list of this kind stays fresh (`RefreshPolicy`).
    public let refreshPeriod: TimeInterval
    /// The values a pane's `f` steps through after "all" (a status the server filters by).
    public let filters: [String]
    /// Where its snapshots are kept.
    public let cache: CacheCollection
    /// A store of the kind's own instead of the hub's keyed `ListStore<Item>`.
    let custom: CustomListStore<Item>?
    /// Cache rows of the kind's own instead of snapshots in `cache`.
    let customCache: CustomListCache?

    public init(
        name: String, path: [String], pageLimit: Int? = nil, refreshPeriod: TimeInterval, filters: [String] = [],
        custom: CustomListStore<Item>? = nil, customCache: CustomListCache? = nil
    ) {
        self.name = name
        self.path = path
        self.pageLimit = pageLimit
        self.refreshPeriod = refreshPeriod
        self.filters = filters
        self.cache = .shared(name)
        self.custom = custom
        self.customCache = customCache
    }

    /// A list of this kind. Its cache key is `key`, or the kind's name with the parameters
    /// (`contracts?status=active`); `onePage` reads only the first page (a list asked for with
    /// its own limit).
    public func query(_ parameters: [ListParameter] = [], key: String? = nil, onePage: Bool = false) -> ListQuery {
        let shown = parameters.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        return ListQuery(
            kind: self, description: key ?? (shown.isEmpty ? name : "\(name)?\(shown)"), parameters: parameters,
            maxPages: onePage ? 1 : ListPaging.maxPages)
    }
}

/// A kind's own store (tasks: the store status events keep in order), in place of the hub's
/// keyed `ListStore`: the store itself, for what every kind's store does (`ListKindStore`), and
/// the list state a query is filed under, handed to `change` (UI thread).
public struct CustomListStore<Item: Sendable>: Sendable {
    let store: @MainActor @Sendable (StoreHub) -> any ListKindStore
    let slot: @MainActor @Sendable (StoreHub, ListQuery, (inout ListState<Item>) -> Void) -> Void

    public init(
        store: @escaping @MainActor @Sendable (StoreHub) -> any ListKindStore,
        slot: @escaping @MainActor @Sendable (StoreHub, ListQuery, (inout ListState<Item>) -> Void) -> Void
    ) {
        self.store = store
        self.slot = slot
    }
}

/// A kind's own rows in the cache (tasks: one row per task, every list a query over them), in
/// place of a snapshot per query: how a fetched list is saved, and what start-up reads back.
public struct CustomListCache: Sendable {
    let store: @Sendable (ListPayload, CacheStore, ListQuery, Date) throws(CacheError) -> Void
    let load: @Sendable (CacheStore, ListQuery) throws(CacheError) -> (ListPayload, Date)?
    /// Called before an item is fetched alone; what it returns writes the fetched item into
    /// the kind's rows (tasks: the row is the task from then on, its status yielding to events
    /// written since the call). Nil: a fetched item is kept in its store's details only.
    let detailWriter: (@Sendable (CacheStore) -> (@Sendable (ListPayload) -> Void)?)?

    public init(
        store: @escaping @Sendable (ListPayload, CacheStore, ListQuery, Date) throws(CacheError) -> Void,
        load: @escaping @Sendable (CacheStore, ListQuery) throws(CacheError) -> (ListPayload, Date)?,
        detailWriter: (@Sendable (CacheStore) -> (@Sendable (ListPayload) -> Void)?)? = nil
    ) {
        self.store = store
        self.load = load
        self.detailWriter = detailWriter
    }
}

/// A `ListKind` whatever its item type: what the engine, the cache, the refresh policy and the
/// hub call.
public protocol AnyListKind: Sendable {
    var name: String { get }
    var refreshPeriod: TimeInterval { get }
    func endpoint(for query: ListQuery) -> Endpoint
    /// Every page of the query's list (see `ListPager`), each handed to `sink` as it arrives;
    /// returns what the sink gives at the end.
    func fetch(_ query: ListQuery, maxBytes: Int, with client: APIClient, into sink: any ListSink) throws
        -> ListPayload
    /// This kind's default sink: the pages gathered, handed over whole (`ListCollector`).
    func collector() -> any ListSink
    func store(_ payload: ListPayload, in cache: CacheStore, query: ListQuery, fetchedAt: Date) throws(CacheError)
    func load(from cache: CacheStore, query: ListQuery) throws(CacheError) -> (ListPayload, Date)?
    /// Files `payload` under the query's list; false when the payload holds other items.
    @MainActor func apply(_ payload: ListPayload, to hub: StoreHub, query: ListQuery, fetchedAt: Date, fromCache: Bool)
        -> Bool
    @MainActor func mark(_ hub: StoreHub, query: ListQuery, _ change: (inout ListStateAny) -> Void)
    /// The kind's store in `hub` (made and registered there on first use).
    @MainActor func store(in hub: StoreHub) -> any ListKindStore
    /// `GET {path}/{id}`: one item, fetched alone (a link kind whose `fetchedAlone` says so), and
    /// written into `cache` when the kind keeps rows of its own there (`CustomListCache`).
    func fetchDetail(id: String, with client: APIClient, cache: CacheStore?) throws -> ListPayload
    /// Keeps an item fetched alone in the kind's store's details.
    @MainActor func keepDetail(_ payload: ListPayload, in hub: StoreHub)
}

extension AnyListKind {
    /// The id of the item `link` names, when it names one of this kind's items.
    public func detailID(of link: DeepLink) -> String? { link.kind.list.name == name ? link.id : nil }
}

extension ListKind: AnyListKind {
    public func endpoint(for query: ListQuery) -> Endpoint {
        var sent = query.parameters.map { ($0.name, $0.value) }
        if query.maxPages > 1, let pageLimit { sent.append(("limit", String(pageLimit))) }
        return Endpoint(path, sent)
    }

    public func fetch(_ query: ListQuery, maxBytes: Int, with client: APIClient, into sink: any ListSink) throws
        -> ListPayload
    {
        let pager = try client.listPagesBlocking(
            Item.self, endpoint(for: query), maxPages: query.maxPages, maxBytes: maxBytes
        ) { added, pager in
            sink.take(
                ListPage(
                    query: query, items: ListPayload(added), number: pager.pages, received: pager.received,
                    more: pager.next != nil))
        }
        return sink.end(query, bound: pager.bound)
    }

    public func collector() -> any ListSink { ListCollector<Item>() }

    public func store(_ payload: ListPayload, in cache: CacheStore, query: ListQuery, fetchedAt: Date)
        throws(CacheError)
    {
        if let customCache { return try customCache.store(payload, cache, query, fetchedAt) }
        guard let items = payload.items(as: Item.self) else { return }
        // A query's cache key is never empty: whether it is the whole list is its parameters'.
        try cache.replace(
            items, in: self.cache, query: query.description, fetchedAt: fetchedAt,
            whole: query.parameters.allSatisfy { $0.value == nil })
    }

    public func load(from cache: CacheStore, query: ListQuery) throws(CacheError) -> (ListPayload, Date)? {
        if let customCache { return try customCache.load(cache, query) }
        return try cache.load(Item.self, from: self.cache, query: query.description).map {
            (ListPayload($0.items), $0.fetchedAt)
        }
    }

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

    @MainActor
    public func store(in hub: StoreHub) -> any ListKindStore {
        if let custom { return hub.register(custom.store(hub), for: self) }
        return hub.listStore(self)
    }

    public func fetchDetail(id: String, with client: APIClient, cache: CacheStore? = nil) throws -> ListPayload {
        let write = cache.flatMap { customCache?.detailWriter?($0) }
        let payload = ListPayload([try client.getBlocking(Item.self, Endpoint(path + [id]))])
        write?(payload)
        return payload
    }

    @MainActor
    public func keepDetail(_ payload: ListPayload, in hub: StoreHub) {
        store(in: hub).keepDetail(payload)
    }

    @MainActor
    private func slot(_ hub: StoreHub, _ query: ListQuery, _ change: (inout ListState<Item>) -> Void) {
        if let custom {
            _ = store(in: hub)  // registered before its first list, so stale marks reach it
            return custom.slot(hub, query, change)
        }
        hub.listStore(self).update(query, change)
    }
}
