import Foundation
import Synchronization

/// A list as the screen shows it: the last good items, when they were fetched, whether they
/// came from the cache and are not yet confirmed by the server, and the last error. An error
/// never clears the items: stale data stays on screen, marked with its age.
public struct ListState<Item: Sendable>: Sendable {
    /// Every change to the items takes a new `generation`, unique in the process: an index
    /// derived from them (`TaskOrder`) knows whether it still describes them without
    /// comparing them.
    public var items: [Item] = [] { didSet { generation = ListGeneration.next() } }
    public private(set) var generation = ListGeneration.next()
    public var fetchedAt: Date?
    /// True while the items come from the cache (or an earlier session) and no fetch has succeeded.
    public var isStale = false
    public var isLoading = false
    public var lastError: String?
    /// While a read of the list is under way: how many items it has received so far
    /// (`SyncUpdate.listProgress`); nil otherwise.
    public var received: Int?
    /// Why the last list the server gave was cut short (`ListPager`); nil when it was whole.
    public var bound: ListBound?

    public init(items: [Item] = [], fetchedAt: Date? = nil, isStale: Bool = false) {
        self.items = items
        self.fetchedAt = fetchedAt
        self.isStale = isStale
    }

    public var hasLoaded: Bool { fetchedAt != nil }

    public mutating func succeed(_ items: [Item], at date: Date) {
        self.items = items
        fetchedAt = date
        isStale = false
        isLoading = false
        lastError = nil
        received = nil
    }

    public mutating func fail(_ message: String) {
        isLoading = false
        lastError = message
        received = nil
    }

    /// Seconds since the data was fetched (nil if never).
    public func age(now: Date) -> TimeInterval? { fetchedAt.map { max(0, now.timeIntervalSince($0)) } }
}

/// The source of `ListState.generation`s: one counter for every list, so a list replaced by
/// another (a new fetch, a forgotten server) never repeats a generation an index was built from.
enum ListGeneration {
    private static let counter = Atomic<UInt64>(0)
    static func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }
}
