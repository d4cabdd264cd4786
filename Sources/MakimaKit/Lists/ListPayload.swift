import Foundation

/// A list result; its items keep their type (`items(as:)` gives them back).
public struct ListPayload: Sendable {
    private let storage: any Sendable
    public let count: Int
    /// Why the list was cut short (`ListPager`), nil when it is whole.
    public let bound: ListBound?

    /// `count`: how many items the list had when they are kept elsewhere (a task list's rows
    /// are in the task table, the payload carries none).
    public init<Item: Sendable>(_ items: [Item], bound: ListBound? = nil, count: Int? = nil) {
        storage = items
        self.count = count ?? items.count
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
