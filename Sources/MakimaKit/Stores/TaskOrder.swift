import Foundation

/// A task list in the order the Tasks pane shows it: newest activity first, ties by id. Built
/// once by a full sort when a list arrives, then kept in order change by change (a status
/// event moves one row: a binary search and an array move), so a live mesh of 100,000 tasks
/// never re-sorts on the UI thread. `generation` is the `ListState.generation` of the items it
/// describes; an order whose generation differs from its list's is rebuilt.
public struct TaskOrder: Sendable {
    public private(set) var tasks: [MeshTask]
    public internal(set) var generation: UInt64

    public init(_ items: [MeshTask], generation: UInt64 = 0) {
        tasks = items.sorted(by: Self.before)
        self.generation = generation
    }

    public var count: Int { tasks.count }

    /// The order itself: newer first; equal times (or none) by id.
    public static func before(_ a: MeshTask, _ b: MeshTask) -> Bool {
        let (ta, tb) = (a.updatedAt ?? .distantPast, b.updatedAt ?? .distantPast)
        return ta == tb ? a.id < b.id : ta > tb
    }

    /// The first position whose task does not come before `task` (where it is, or goes).
    public func insertionIndex(of task: MeshTask) -> Int {
        var (low, high) = (0, tasks.count)
        while low < high {
            let mid = (low + high) / 2
            if Self.before(tasks[mid], task) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The position of this task as it was last stored (same id and update time), if present.
    public func index(of task: MeshTask) -> Int? {
        var i = insertionIndex(of: task)
        // Duplicate ids with the same time sit side by side.
        while i < tasks.count, !Self.before(task, tasks[i]) {
            if tasks[i].id == task.id { return i }
            i += 1
        }
        return nil
    }

    /// Replaces `old` (as it was stored) with `new`, removing or inserting as each is nil.
    public mutating func replace(_ old: MeshTask?, with new: MeshTask?) {
        if let old, let i = index(of: old) { tasks.remove(at: i) }
        if let new { tasks.insert(new, at: insertionIndex(of: new)) }
    }
}
