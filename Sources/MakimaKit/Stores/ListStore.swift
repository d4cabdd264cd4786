import Foundation
import Observation

/// What every kind's store does when the hub speaks to all of them at once: after a refused
/// key, on a server switch, before each batch of updates (`StoreHub+Stale`).
@MainActor
public protocol ListKindStore: AnyObject {
    /// Every loaded list keeps its items but is marked stale.
    func markStale()
    /// Everything one server said is dropped.
    func forget()
    /// The details with these ids stay in the bounded map however many others arrive.
    func keepDetails(_ ids: Set<String>)
    /// Files an item fetched alone (a destination's detail) in the bounded map.
    func keepDetail(_ payload: ListPayload)
}

/// One kind's lists, by query, and the items of that kind fetched one by one (bounded:
/// `BoundedMap`). The store of every kind that does not name one of its own; its kind's file
/// adds the conveniences panes read (`hub.daemons.list`, `hub.contracts.active`).
@MainActor @Observable
public final class ListStore<Item: Sendable & Identifiable>: ListKindStore where Item.ID == String {
    public var lists: [ListQuery: ListState<Item>] = [:]
    /// Items fetched one by one (detail panes), bounded (`BoundedMap`).
    public var details = BoundedMap<String, Item>()

    public init() {}

    /// The list for `query`, empty (never loaded) when it was never filed.
    public func list(_ query: ListQuery) -> ListState<Item> { lists[query] ?? ListState() }

    public subscript(query: ListQuery) -> ListState<Item> {
        get { list(query) }
        set { lists[query] = newValue }
    }

    func update(_ query: ListQuery, _ change: (inout ListState<Item>) -> Void) {
        var state = list(query)
        change(&state)
        lists[query] = state
    }

    public func markStale() {
        for (query, state) in lists where state.hasLoaded || !state.items.isEmpty {
            lists[query]?.isStale = true
        }
    }

    public func forget() {
        lists = [:]
        details.removeAll()
    }

    public func keepDetails(_ ids: Set<String>) {
        // Only a real change is written: every write to an observed store marks the panes
        // that read it dirty, and this runs with every batch of updates.
        if details.pinned != ids { details.pin(ids) }
    }

    public func keepDetail(_ payload: ListPayload) {
        for item in payload.items(as: Item.self) ?? [] { details[item.id] = item }
    }
}
