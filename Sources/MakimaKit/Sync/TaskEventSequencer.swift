/// Puts each task's events in `seq` order with nothing lost and nothing doubled.
///
/// Events may arrive live, from a resync replay, or from a REST hole fill, in any order and
/// any number of times. Each task has a contiguous high-water mark (`lastApplied`); an event
/// at the mark + 1 is applied (with any buffered successors), one at or below it is a
/// duplicate, one above it is held and the gap is reported so the caller can fetch it.
/// Not thread-safe: the sync engine owns one behind its lock.
public struct TaskEventSequencer: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// These events, in order, are now part of the task's history.
        case applied([TaskEvent])
        case duplicate
        /// Held until the missing seqs arrive; `missing` is the first gap.
        case held(missing: ClosedRange<Int>)
    }

    public private(set) var lastApplied: [String: Int]
    private var held: [String: [Int: TaskEvent]] = [:]
    /// Held events per task are capped so a task whose gap can never be filled cannot grow
    /// without bound; past the cap the oldest gap is declared lost (counted) and skipped.
    public let maxHeldPerTask: Int
    public private(set) var declaredLost = 0

    public init(lastApplied: [String: Int] = [:], maxHeldPerTask: Int = 20_000) {
        self.lastApplied = lastApplied
        self.maxHeldPerTask = maxHeldPerTask
    }

    public mutating func accept(_ event: TaskEvent) -> Outcome {
        let task = event.taskID
        let last = lastApplied[task] ?? 0
        if event.seq <= last || held[task]?[event.seq] != nil { return .duplicate }
        if event.seq != last + 1 {
            held[task, default: [:]][event.seq] = event
            if held[task]!.count > maxHeldPerTask { return skipGap(task) }
            return .held(missing: missingRange(for: task)!)
        }
        var out = [event]
        var next = event.seq + 1
        if var waiting = held[task] {
            while let e = waiting.removeValue(forKey: next) {
                out.append(e)
                next += 1
            }
            held[task] = waiting.isEmpty ? nil : waiting
        }
        lastApplied[task] = next - 1
        return .applied(out)
    }

    /// Starts following a task from `seq` (events at or below it count as already seen).
    public mutating func setBaseline(_ task: String, seq: Int) {
        if lastApplied[task] == nil { lastApplied[task] = seq }
    }

    /// The first gap of a task, if it has held events waiting on one.
    public func missingRange(for task: String) -> ClosedRange<Int>? {
        guard let waiting = held[task], let lowest = waiting.keys.min() else { return nil }
        let from = (lastApplied[task] ?? 0) + 1
        return from...(lowest - 1)
    }

    public var tasksWithGaps: [String] { held.keys.sorted() }

    /// Gives up on a gap that cannot be filled (the server no longer has those events): the
    /// held events after it are applied. Used only when a hole fill returns nothing.
    public mutating func skipGap(_ task: String) -> Outcome {
        guard let waiting = held[task], let lowest = waiting.keys.min() else { return .applied([]) }
        declaredLost += lowest - ((lastApplied[task] ?? 0) + 1)
        var out: [TaskEvent] = []
        var rest = waiting
        var next = lowest
        while let e = rest.removeValue(forKey: next) {
            out.append(e)
            next += 1
        }
        lastApplied[task] = next - 1
        held[task] = rest.isEmpty ? nil : rest
        return .applied(out)
    }
}
