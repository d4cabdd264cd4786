import Foundation

/// One page of a list read, as it arrives.
public struct ListPage: Sendable {
    public let query: ListQuery
    /// The items this page added (those not on an earlier page of the read), in the server's
    /// order, typed as the query's resource says.
    public let items: ListPayload
    /// Pages read so far, this one included.
    public let number: Int
    /// Items the read has kept so far, this page's included.
    public let received: Int
    /// Whether another page follows.
    public let more: Bool
}

/// Where one read of a list puts its pages: the seam between reading a list and keeping it.
/// A read calls `take` for every page as it arrives, in order, then `end` once: the server
/// ended the list (`bound` nil) or the read was cut at `bound`. What `end` returns is the
/// result the stores are handed (`SyncUpdate.list`). One sink serves one read, on the fetch
/// thread that runs it; the engine makes one per read (a task list with a cache streams into
/// `TaskTableSink`, every other list goes to its kind's `ListCollector`).
public protocol ListSink: AnyObject {
    func take(_ page: ListPage)
    func end(_ query: ListQuery, bound: ListBound?) -> ListPayload
}

/// The sink every kind of list has unless told otherwise: the pages gathered in one array,
/// handed over whole when the read ends (the store slot replaces its list with it). A list
/// kept in memory this way is bounded in items too (`maxItems`): a few bytes of JSON per item
/// on the wire become a few hundred in memory, so the byte bound alone would let a hostile
/// server fill gigabytes. Task lists, which a real mesh makes long, stream into the cache's
/// task table instead (`TaskTableSink`).
public final class ListCollector<Item: Sendable>: ListSink {
    private var items: [Item] = []
    private let maxItems: Int
    private var cut = false

    public init(maxItems: Int = ListPaging.maxItemsInMemory) { self.maxItems = max(1, maxItems) }

    public func take(_ page: ListPage) {
        guard let added = page.items.items(as: Item.self) else { return }
        let room = maxItems - items.count
        if added.count > room { cut = true }
        items += added.prefix(max(0, room))
    }

    public func end(_ query: ListQuery, bound: ListBound?) -> ListPayload {
        defer { items = [] }
        return ListPayload(items, bound: bound ?? (cut ? .items(maxItems) : nil))
    }
}

/// A sink that also says how far a long read has come (`SyncUpdate.listProgress`), at most
/// once per `ListProgressThrottle.interval` per read, and only while more pages follow: a
/// list of one page says nothing before its result.
final class ProgressReportingSink: ListSink {
    private let inner: any ListSink
    private var throttle: ListProgressThrottle
    private let post: (SyncUpdate) -> Void

    init(_ inner: any ListSink, now: @escaping () -> Date = { Date() }, post: @escaping (SyncUpdate) -> Void) {
        self.inner = inner
        throttle = ListProgressThrottle(now: now)
        self.post = post
    }

    func take(_ page: ListPage) {
        inner.take(page)
        if page.more && throttle.due() { post(.listProgress(page.query, received: page.received)) }
    }

    func end(_ query: ListQuery, bound: ListBound?) -> ListPayload { inner.end(query, bound: bound) }
}

/// Spaces out the progress figures of one read: the first is due at once, the next ones
/// `interval` apart (4 a second: the pane title reads smoothly, and a read of 200 pages
/// costs the screen a few dozen rebuilds, not 200).
struct ListProgressThrottle {
    static let interval: TimeInterval = 0.25
    private let now: () -> Date
    private var last: Date?

    init(now: @escaping () -> Date) { self.now = now }

    mutating func due() -> Bool {
        let t = now()
        if let last, t.timeIntervalSince(last) < Self.interval { return false }
        last = t
        return true
    }
}
