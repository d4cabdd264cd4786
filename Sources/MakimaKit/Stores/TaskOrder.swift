import Foundation

/// A task list in the order the Tasks pane shows it: newest activity first, ties by id. Built
/// once by a full sort when a list arrives, then kept in order change by change (a status
/// event moves one row: binary searches and a move inside one run), so a live mesh of
/// 100,000 tasks never re-sorts on the UI thread. `generation` is the `ListState.generation`
/// of the items it describes; an order whose generation differs from its list's is rebuilt.
///
/// The tasks are held in sorted runs of a few hundred: a pane keeps the order it was given
/// (a value) while the store changes its own, and a change then copies one run, not the list.
public struct TaskOrder: Sendable {
    private var runs: [[MeshTask]] = []
    /// The position of each run's first task.
    private var starts: [Int] = []
    public private(set) var count = 0
    public internal(set) var generation: UInt64
    static let runLength = 256

    public init(_ items: [MeshTask], generation: UInt64 = 0) {
        let sorted = items.sorted(by: Self.before)
        runs = stride(from: 0, to: sorted.count, by: Self.runLength).map {
            Array(sorted[$0..<min($0 + Self.runLength, sorted.count)])
        }
        self.generation = generation
        recount()
    }

    /// The order itself: newer first; equal times (or none) by id.
    public static func before(_ a: MeshTask, _ b: MeshTask) -> Bool {
        let (ta, tb) = (a.updatedAt ?? .distantPast, b.updatedAt ?? .distantPast)
        return ta == tb ? a.id < b.id : ta > tb
    }

    /// Every task in order (made now: tests and small lists).
    public var tasks: [MeshTask] { runs.flatMap { $0 } }

    public subscript(position: Int) -> MeshTask {
        var (low, high) = (0, starts.count - 1)  // the last run starting at or before `position`
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= position { low = mid } else { high = mid - 1 }
        }
        return runs[low][position - starts[low]]
    }

    /// Replaces `old` (as it was stored) with `new`, removing or inserting as each is nil.
    public mutating func replace(_ old: MeshTask?, with new: MeshTask?) {
        if let old { remove(old) }
        if let new { insert(new) }
        recount()
    }

    /// The run and offset of the first task that does not come before `task`.
    private func locate(_ task: MeshTask) -> (run: Int, offset: Int) {
        var (low, high) = (0, runs.count)
        while low < high {
            let mid = (low + high) / 2
            if let last = runs[mid].last, Self.before(last, task) { low = mid + 1 } else { high = mid }
        }
        guard low < runs.count else { return (max(0, runs.count - 1), runs.last?.count ?? 0) }
        let run = runs[low]
        var (lo, hi) = (0, run.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if Self.before(run[mid], task) { lo = mid + 1 } else { hi = mid }
        }
        return (low, lo)
    }

    private mutating func remove(_ task: MeshTask) {
        var (r, o) = locate(task)
        // Tasks with the same time and id (a server's duplicates) sit side by side.
        while r < runs.count {
            if o >= runs[r].count {
                (r, o) = (r + 1, 0)
                continue
            }
            if Self.before(task, runs[r][o]) { return }
            if runs[r][o].id == task.id {
                runs[r].remove(at: o)
                if runs[r].isEmpty { runs.remove(at: r) }
                return
            }
            o += 1
        }
    }

    private mutating func insert(_ task: MeshTask) {
        guard !runs.isEmpty else {
            runs = [[task]]
            return
        }
        let (r, o) = locate(task)
        runs[r].insert(task, at: o)
        if runs[r].count > 2 * Self.runLength {
            let tail = Array(runs[r][Self.runLength...])
            runs[r].removeLast(runs[r].count - Self.runLength)
            runs.insert(tail, at: r + 1)
        }
    }

    private mutating func recount() {
        starts.removeAll(keepingCapacity: true)
        var at = 0
        for run in runs {
            starts.append(at)
            at += run.count
        }
        count = at
    }
}
