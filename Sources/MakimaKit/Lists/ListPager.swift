import Foundation

/// Reads a list the server sends in pages: each answer's `next_cursor` is sent back as
/// `cursor` until an answer has none. The pager keeps no items: `take` returns what each page
/// adds and the caller hands it on (`ListSink`), so a list of 200,000 tasks is never held by
/// the read as well as by whoever keeps it. There is no cap on how many items a list may
/// have; the server is still not trusted to end the list: the pager stops at `maxPages`
/// pages or `maxBytes` bytes read (sized against the cache's budget, `ListPaging.maxBytes`),
/// at a cursor it has already sent, and at a page that adds nothing new; an item seen on an
/// earlier page (a list that moved while it was read) is kept once, where it was first seen.
/// One item larger than `ListPaging.maxItemBytes` is dropped before decoding
/// (`ListItemSizes`): a list of a few huge items costs one page, not hundreds.
///
/// `next` gives the request for the next page (nil: the list is complete or a bound was
/// reached); `APIClient.listPagesBlocking` runs it and hands the answer to `take`.
public struct ListPager<Item: Decodable & Identifiable & Sendable>: Sendable where Item.ID == String {
    /// Items kept so far (each id once).
    public private(set) var received = 0
    /// Pages read so far.
    public private(set) var pages = 0
    /// Bytes of the page bodies read so far.
    public private(set) var bytes = 0
    /// Items dropped for being larger than `ListPaging.maxItemBytes`.
    public private(set) var oversizedItems = 0
    /// Why the list was cut rather than ended by the server (nil: it was not cut).
    public private(set) var bound: ListBound?
    /// True when the list was cut at a bound rather than ended by the server.
    public var truncated: Bool { bound != nil }
    /// The ids seen, as their hashes: 8 bytes an item instead of a copy of each id (a list of
    /// 200,000 tasks kept 200,000 id strings here). Swift's hash is seeded per process, so a
    /// server cannot make two ids collide on purpose; by chance, two of 200,000 ids share a
    /// 64-bit hash about once in 10^9 reads, and the second is then dropped as a repeat.
    private var seen = Set<Int>()
    private var cursors = Set<String>()
    private let first: Endpoint
    private var upcoming: Endpoint?
    private let limit: Int
    private let maxBytes: Int

    /// `maxPages` 1 reads only the first page (a list asked for with its own `limit`); a read
    /// that stops at fewer pages than `ListPaging.maxPages` was asked to, and is not cut.
    public init(_ first: Endpoint, maxPages: Int = ListPaging.maxPages, maxBytes: Int = ListPaging.maxBytes) {
        self.first = first
        upcoming = first
        limit = max(1, min(maxPages, ListPaging.maxPages))
        self.maxBytes = max(1, maxBytes)
    }

    /// The request to run next, or nil when the list is complete.
    public var next: Endpoint? { upcoming }

    /// Takes the answer to `next`: the decoded page, the size of its body and how many items
    /// were dropped from it for their size. Returns the items it added (those not on an
    /// earlier page), in the server's order.
    @discardableResult
    public mutating func take(_ page: ListEnvelope<Item>, bytes pageBytes: Int = 0, oversized: Int = 0) -> [Item] {
        pages += 1
        bytes += pageBytes
        oversizedItems += oversized
        let added = page.items.filter { seen.insert($0.id.hashValue).inserted }
        received += added.count
        upcoming = nil
        // No cursor: the server says the list is complete.
        guard let cursor = page.nextCursor else { return added }
        if pages >= limit {
            // A read asked for fewer pages (a list with its own `limit`: one page) is what was
            // asked for, not cut: it is neither said nor backed off (`ListBackoff`).
            if limit == ListPaging.maxPages { bound = .pages(limit) }
        } else if bytes >= maxBytes {
            bound = .bytes(maxBytes)
        } else if added.isEmpty || !cursors.insert(cursor).inserted {
            bound = .noProgress
        } else {
            upcoming = first.page(cursor)
        }
        return added
    }
}

/// Why a paged list was cut.
public enum ListBound: Sendable, Equatable, CustomStringConvertible {
    /// The read reached its most pages (the number).
    case pages(Int)
    /// The read reached its most bytes (the number).
    case bytes(Int)
    /// A page brought nothing new, or a cursor came back.
    case noProgress
    /// A list kept in memory (not a task list) reached its most items (the number).
    case items(Int)
    /// The cache's task table is at its share (the number of tasks it keeps): the tasks past
    /// it were read but not kept.
    case tableFull(Int)

    public var description: String {
        switch self {
        case .pages(let n): "over \(n) pages"
        case .bytes(let n): "over \(n >> 20) MB"
        case .noProgress: "its pages stopped adding items"
        case .items(let n): "over \(n) items"
        case .tableFull(let n): "over the \(n) tasks the cache keeps"
        }
    }
}

/// The bounds every paged list read keeps to. None is a number of items: a mesh keeps its
/// history, and a list of any length is read whole unless the server misbehaves (a cursor
/// that never ends, pages that bring nothing new) or the list is larger than what the cache
/// could keep of it.
public enum ListPaging {
    /// The page size asked for where a request takes one (`limit`); servers may send fewer.
    public static let pageSize = 1000
    /// The most items of one list kept in memory (daemons, contracts, directives, listen
    /// sessions: `ListCollector`): a hundred times a large mesh's daemons.
    public static let maxItemsInMemory = 200_000
    /// The most requests one read makes: 2,000,000 tasks in pages of 1,000, or 200,000 from a
    /// server that answers pages of 100. A server paging forever costs this many requests
    /// once, then the list backs off (`ListBackoff`).
    public static let maxPages = 2_000
    /// How many bytes of list the read takes per byte of cache budget: a list is read to be
    /// kept, and its wire form (field names, quotes, fields the client ignores) is larger than
    /// what the cache keeps of it.
    public static let bytesPerCacheByte = 8
    /// The least one read may take, whatever the budget.
    public static let minimumBytes = 192 << 20
    /// The most one read of a list takes from the server, all pages together, for a cache
    /// held under `cacheBudget` bytes (`CacheRetention.maxBytes`, `settings.cache.max_mb`):
    /// 512 MB at the standard 64 MB, where a 200,000-task mesh of long plans fits.
    public static func maxBytes(cacheBudget: Int) -> Int {
        let (bytes, overflow) = cacheBudget.multipliedReportingOverflow(by: bytesPerCacheByte)
        return overflow ? .max : max(minimumBytes, bytes)
    }
    /// `maxBytes` for the standard cache budget (a read without a cache: `status`, `watch`).
    public static let maxBytes = maxBytes(cacheBudget: CacheRetention.standard.maxBytes)
    /// One list item larger than this is dropped (tasks, daemons, contracts are a few
    /// hundred bytes to a few KB; what is longer than this is not a list entry).
    public static let maxItemBytes = 256 << 10
}

extension APIClient {
    /// Every page of a list (see `ListPager`), each request on the calling thread; each page's
    /// new items go to `page` as it arrives, with the pager as it stands after it.
    public func listPagesBlocking<Item: Decodable & Identifiable & Sendable>(
        _ type: Item.Type, _ endpoint: Endpoint, maxPages: Int = ListPaging.maxPages,
        maxBytes: Int = ListPaging.maxBytes, page: ([Item], ListPager<Item>) throws -> Void
    ) throws -> ListPager<Item> where Item.ID == String {
        var pager = ListPager<Item>(endpoint, maxPages: maxPages, maxBytes: maxBytes)
        while let request = pager.next {
            let body = try sendBlocking(.get, request.segments, query: request.query).body
            let added = try take(body, into: &pager)
            try page(added, pager)
        }
        return pager
    }

    private func take<Item>(_ body: Data, into pager: inout ListPager<Item>) throws -> [Item] {
        let (kept, dropped) = ListItemSizes.droppingOversized(body, limit: ListPaging.maxItemBytes)
        return pager.take(try decode(ListEnvelope<Item>.self, from: kept), bytes: body.count, oversized: dropped)
    }
}
