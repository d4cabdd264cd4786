/// Reads a list the server sends in pages: each answer's `next_cursor` is sent back as
/// `cursor` until an answer has none. The server is not trusted to end the list: the pager
/// stops at `maxItems` items or `maxPages` pages, at a cursor it has already sent, and at a
/// page that adds nothing new; an item seen on an earlier page (a list that moved while it
/// was read) is kept once, where it was first seen.
///
/// `next` gives the request for the next page (nil: the list is complete or a bound was
/// reached); the caller runs it, blocking or async, and hands the answer to `take`.
public struct ListPager<Item: Decodable & Identifiable & Sendable>: Sendable where Item.ID == String {
    public private(set) var items: [Item] = []
    /// Pages read so far.
    public private(set) var pages = 0
    /// True when the list was cut at a bound rather than ended by the server.
    public private(set) var truncated = false
    private var seen = Set<String>()
    private var cursors = Set<String>()
    private let first: Endpoint
    private var upcoming: Endpoint?
    private let limit: Int

    /// `maxPages` 1 reads only the first page (a list asked for with its own `limit`).
    public init(_ first: Endpoint, maxPages: Int = ListPaging.maxPages) {
        self.first = first
        upcoming = first
        limit = max(1, min(maxPages, ListPaging.maxPages))
    }

    /// The request to run next, or nil when the list is complete.
    public var next: Endpoint? { upcoming }

    /// Takes the answer to `next`.
    public mutating func take(_ page: ListEnvelope<Item>) {
        pages += 1
        var added = 0
        for item in page.items where seen.insert(item.id).inserted {
            guard items.count < ListPaging.maxItems else {
                truncated = true
                break
            }
            items.append(item)
            added += 1
        }
        upcoming = nil
        // No cursor: the server says the list is complete.
        guard let cursor = page.nextCursor else { return }
        if truncated || pages >= limit || added == 0 || !cursors.insert(cursor).inserted {
            truncated = true
            return
        }
        upcoming = first.page(cursor)
    }
}

/// The bounds every paged list read keeps to.
public enum ListPaging {
    /// The page size asked for where a request takes one (`limit`); servers may send fewer.
    public static let pageSize = 1000
    /// A list longer than this is cut here (a 10,000-task mesh fits five times over).
    public static let maxItems = 50_000
    public static let maxPages = 200
}

extension APIClient {
    /// Every page of a list (see `ListPager`), each request on the calling thread.
    public func listBlocking<Item: Decodable & Identifiable & Sendable>(
        _ type: Item.Type, _ endpoint: Endpoint, maxPages: Int = ListPaging.maxPages
    ) throws -> ListPager<Item> where Item.ID == String {
        var pager = ListPager<Item>(endpoint, maxPages: maxPages)
        while let request = pager.next { pager.take(try getBlocking(ListEnvelope<Item>.self, request)) }
        return pager
    }

    /// Every page of a list (see `ListPager`).
    public func list<Item: Decodable & Identifiable & Sendable>(
        _ type: Item.Type, _ endpoint: Endpoint, maxPages: Int = ListPaging.maxPages
    ) async throws -> ListPager<Item> where Item.ID == String {
        var pager = ListPager<Item>(endpoint, maxPages: maxPages)
        while let request = pager.next { pager.take(try await get(ListEnvelope<Item>.self, request)) }
        return pager
    }
}
