/// Which tasks keep their output in memory: the ones on screen or viewed recently, at most
/// `capacity`. Every other task's output lives only in the cache and is read again when its
/// view opens; without this the dashboard held 2,000 lines for every task ever seen.
public struct TaskOutputLRU: Sendable, Equatable {
    public let capacity: Int
    /// Most recently viewed last.
    public private(set) var order: [String] = []

    public init(capacity: Int = 8) { self.capacity = max(1, capacity) }

    public func contains(_ taskID: String) -> Bool { order.contains(taskID) }

    /// Marks a task as viewed now; returns the tasks that fell out (their buffers can go).
    public mutating func touch(_ taskID: String) -> [String] {
        order.removeAll { $0 == taskID }
        order.append(taskID)
        guard order.count > capacity else { return [] }
        let evicted = Array(order.prefix(order.count - capacity))
        order.removeFirst(evicted.count)
        return evicted
    }
}
