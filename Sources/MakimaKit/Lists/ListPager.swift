import Foundation

/// Reads a list the server sends in pages: each answer's `next_cursor` is sent back as
/// `cursor` until an answer has none. The server is not trusted to end the list, nor to keep
/// it small: the pager stops at `maxItems` items, `maxPages` pages or `maxBytes` bytes read,
/// at a cursor it has already sent, and at a page that adds nothing new; an item seen on an
/// earlier page (a list that moved while it was read) is kept once, where it was first seen.
/// One item larger than `ListPaging.maxItemBytes` is dropped before decoding
/// (`ListItemSizes`): a list of a few huge items costs one page, not hundreds.
///
/// `next` gives the request for the next page (nil: the list is complete or a bound was
/// reached); the caller runs it, blocking or async, and hands the answer to `take`.
public struct ListPager<Item: Decodable & Identifiable & Sendable>: Sendable where Item.ID == String {
    public private(set) var items: [Item] = []
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
    private var seen = Set<String>()
    private var cursors = Set<String>()
    private let first: Endpoint
    private var upcoming: Endpoint?
    private let limit: Int
    private let maxBytes: Int

    /// `maxPages` 1 reads only the first page (a list asked for with its own `limit`).
    public init(_ first: Endpoint, maxPages: Int = ListPaging.maxPages, maxBytes: Int = ListPaging.maxBytes) {
        self.first = first
        upcoming = first
        limit = max(1, min(maxPages, ListPaging.maxPages))
        self.maxBytes = max(1, maxBytes)
    }

    /// The request to run next, or nil when the list is complete.
    public var next: Endpoint? { upcoming }

    /// Takes the answer to `next`: the decoded page, the size of its body and how many items
    /// were dropped from it for their size.
    public mutating func take(_ page: ListEnvelope<Item>, bytes pageBytes: Int = 0, oversized: Int = 0) {
        pages += 1
        bytes += pageBytes
        oversizedItems += oversized
        var added = 0
        for item in page.items where seen.insert(item.id).inserted {
            guard items.count < ListPaging.maxItems else {
                bound = .items
                break
            }
            items.append(item)
            added += 1
        }
        upcoming = nil
        // No cursor: the server says the list is complete.
        guard let cursor = page.nextCursor, bound == nil else { return }
        if pages >= limit {
            bound = .pages
        } else if bytes >= maxBytes {
            bound = .bytes
        } else if added == 0 || !cursors.insert(cursor).inserted {
            bound = .noProgress
        } else {
            upcoming = first.page(cursor)
        }
    }
}

/// Why a paged list was cut.
public enum ListBound: String, Sendable, Equatable, CustomStringConvertible {
    case items, pages, bytes, noProgress

    public var description: String {
        switch self {
        case .items: "over \(ListPaging.maxItems) items"
        case .pages: "over \(ListPaging.maxPages) pages"
        case .bytes: "over \(ListPaging.maxBytes >> 20) MB"
        case .noProgress: "its pages stopped adding items"
        }
    }
}

/// The bounds every paged list read keeps to.
public enum ListPaging {
    /// The page size asked for where a request takes one (`limit`); servers may send fewer.
    public static let pageSize = 1000
    /// A list longer than this is cut here (a 10,000-task mesh fits five times over).
    public static let maxItems = 50_000
    public static let maxPages = 200
    /// The most one read of a list takes from the server, all pages together: a mesh of
    /// 200,000 tasks (about 840 bytes each) fits.
    public static let maxBytes = 192 << 20
    /// One list item larger than this is dropped (tasks, daemons, contracts are a few
    /// hundred bytes to a few KB; what is longer than this is not a list entry).
    public static let maxItemBytes = 256 << 10
}

extension APIClient {
    /// Every page of a list (see `ListPager`), each request on the calling thread.
    public func listBlocking<Item: Decodable & Identifiable & Sendable>(
        _ type: Item.Type, _ endpoint: Endpoint, maxPages: Int = ListPaging.maxPages,
        maxBytes: Int = ListPaging.maxBytes
    ) throws -> ListPager<Item> where Item.ID == String {
        var pager = ListPager<Item>(endpoint, maxPages: maxPages, maxBytes: maxBytes)
        while let request = pager.next {
            let body = try sendBlocking(.get, request.segments, query: request.query).body
            try take(body, into: &pager)
        }
        return pager
    }

    /// Every page of a list (see `ListPager`).
    public func list<Item: Decodable & Identifiable & Sendable>(
        _ type: Item.Type, _ endpoint: Endpoint, maxPages: Int = ListPaging.maxPages,
        maxBytes: Int = ListPaging.maxBytes
    ) async throws -> ListPager<Item> where Item.ID == String {
        var pager = ListPager<Item>(endpoint, maxPages: maxPages, maxBytes: maxBytes)
        while let request = pager.next {
            let body = try await send(.get, request.segments, query: request.query).body
            try take(body, into: &pager)
        }
        return pager
    }

    private func take<Item>(_ body: Data, into pager: inout ListPager<Item>) throws {
        let (kept, dropped) = ListItemSizes.droppingOversized(body, limit: ListPaging.maxItemBytes)
        pager.take(try decode(ListEnvelope<Item>.self, from: kept), bytes: body.count, oversized: dropped)
    }
}
