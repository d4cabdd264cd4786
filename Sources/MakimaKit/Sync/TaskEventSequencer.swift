/// Puts each task's events in `seq` order with nothing lost and nothing doubled.
///
/// Events may arrive live, from a resync replay, or from a REST hole fill, in any order and
/// any number of times. Each task has a contiguous high-water mark (`lastApplied`); an event
/// at the mark + 1 is applied (with any buffered successors), one at or below it is a
/// duplicate, one above it is held and the gap is reported so the caller can fetch it.
///
/// Every seq comes from the server, so none is trusted: a seq outside `1...maxSeq` is a
/// protocol error (rejected and counted, never held or stored), which keeps every `+ 1` here
/// far from `Int.max`. Held events are bounded per task, in total and in bytes; past a bound
/// the held events farthest from their gap are dropped (counted), not declared lost: the task
/// keeps its gap up to the highest seq seen (`wanted`), so the hole fill pages through them
/// over REST.
/// Not thread-safe: the sync engine owns one behind its lock.
public struct TaskEventSequencer: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// These events, in order, are now part of the task's history.
        case applied([TaskEvent])
        case duplicate
        /// Held until the missing seqs arrive; `missing` is the first gap.
        case held(missing: ClosedRange<Int>)
        /// A seq no server can have reached: skipped and counted in `rejected`.
        case rejected
    }

    /// The highest seq taken seriously: 2^53, the largest integer a JSON number carries exactly
    /// in every server language. Anything above it comes from a broken or hostile server.
    public static let maxSeq = 1 << 53

    public private(set) var lastApplied: [String: Int]
    private var held: [String: [Int: TaskEvent]] = [:]
    /// Per task with a gap, the highest seq the server has shown and that is not applied yet.
    private var wanted: [String: Int] = [:]
    private var heldTotal = 0
    private var heldBytes = 0
    public let maxHeldPerTask: Int
    public let maxHeldTotal: Int
    /// Held text in bytes, all tasks together (see `size(of:)`).
    public let maxHeldBytes: Int
    /// Seqs the server said it no longer has (a page that started above the gap).
    public private(set) var declaredLost = 0
    /// Events refused for an absurd seq.
    public private(set) var rejected = 0
    /// Held events let go to stay within the bounds or after a timed-out wait; refetched later.
    public private(set) var heldDropped = 0

    public init(
        lastApplied: [String: Int] = [:], maxHeldPerTask: Int = 20_000, maxHeldTotal: Int = 50_000,
        maxHeldBytes: Int = 32 << 20
    ) {
        // A mark read from an old cache may be absurd too: such a task starts over.
        self.lastApplied = lastApplied.filter { (0...Self.maxSeq).contains($0.value) }
        self.maxHeldPerTask = max(1, maxHeldPerTask)
        self.maxHeldTotal = max(1, maxHeldTotal)
        self.maxHeldBytes = max(1, maxHeldBytes)
    }

    public static func isAbsurd(_ seq: Int) -> Bool { seq < 1 || seq > maxSeq }

    /// Applies all of `events` when each is the next seq of its task and no gap is open (the
    /// live stream's usual case: a socket read of one task's events in order), deciding it
    /// from the seqs alone, so the caller can pass the array on as it is instead of copying
    /// each event into a new one. Returns false, having changed nothing, otherwise: the
    /// caller then takes them one by one (`accept(_:appendingTo:)`).
    public mutating func acceptInOrder(_ events: [TaskEvent]) -> Bool {
        guard held.isEmpty, wanted.isEmpty, !events.isEmpty else { return false }
        // Runs of one task: a task met again later continues from where its run ended.
        var reached: [String: Int] = [:]
        var task = events[0].taskID
        var last = lastApplied[task] ?? 0
        for i in events.indices {
            if events[i].taskID != task {
                reached[task] = last
                task = events[i].taskID
                last = reached[task] ?? lastApplied[task] ?? 0
            }
            guard events[i].seq == last + 1, !Self.isAbsurd(events[i].seq) else { return false }
            last += 1
        }
        reached[task] = last
        for (task, last) in reached { lastApplied[task] = last }
        return true
    }

    public mutating func accept(_ event: TaskEvent) -> Outcome {
        var out: [TaskEvent] = []
        return accept(event, appendingTo: &out) ?? .applied(out)
    }

    /// As `accept`, but what it applies is appended to `out` and it returns nil then: the live
    /// path takes thousands of events per socket read, and an array per event showed in the
    /// ingest profile. The other outcomes are returned as they are.
    public mutating func accept(_ event: TaskEvent, appendingTo out: inout [TaskEvent]) -> Outcome? {
        if Self.isAbsurd(event.seq) {
            rejected += 1
            return .rejected
        }
        let task = event.taskID
        let last = lastApplied[task] ?? 0
        // `held` and `wanted` are empty unless a gap is open: skip hashing the id into them.
        if event.seq <= last || (!held.isEmpty && held[task]?[event.seq] != nil) { return .duplicate }
        if event.seq != last + 1 {
            hold(event)
            return .held(missing: missingRange(for: task) ?? (last + 1)...(event.seq - 1))
        }
        out.append(event)
        var next = event.seq + 1
        if !held.isEmpty, var waiting = held[task] {
            while let e = waiting.removeValue(forKey: next) {
                out.append(e)
                heldTotal -= 1
                heldBytes -= Self.size(of: e)
                next += 1
            }
            held[task] = waiting.isEmpty ? nil : waiting
        }
        lastApplied[task] = next - 1
        if !wanted.isEmpty, let w = wanted[task], w < next { wanted[task] = nil }
        return nil
    }

    /// A page of `GET …/output?after_seq=after` for one task. Events of other tasks, at or
    /// below `after`, or absurd are ignored. A page that starts above `after + 1` while the
    /// task still stands at `after` is the server saying those seqs are gone: they are counted
    /// in `declaredLost` (and returned as `lost`) and skipped.
    public mutating func acceptPage(task: String, after: Int, events: [TaskEvent]) -> (applied: [TaskEvent], lost: Int)
    {
        var seen = Set<Int>()
        let mine = events.filter { $0.taskID == task }
        let usable = mine.filter { $0.seq > after && !Self.isAbsurd($0.seq) }
            .sorted { $0.seq < $1.seq }
            .filter { seen.insert($0.seq).inserted }
        rejected += mine.filter { Self.isAbsurd($0.seq) }.count
        guard let first = usable.first else { return ([], 0) }
        var lost = 0
        if after >= 0, (lastApplied[task] ?? 0) == after, first.seq > after + 1 {
            lost = first.seq - after - 1
            declaredLost += lost
            dropHeld(task, counted: false) { $0 <= first.seq }
            lastApplied[task] = first.seq - 1
        }
        var applied: [TaskEvent] = []
        for e in usable {
            if case .applied(let list) = accept(e) { applied.append(contentsOf: list) }
        }
        return (applied, lost)
    }

    /// The first gap of a task: up to its lowest held event, or (when held events were let
    /// go) up to the highest seq seen.
    public func missingRange(for task: String) -> ClosedRange<Int>? {
        let from = (lastApplied[task] ?? 0) + 1
        if let lowest = held[task]?.keys.min() { return from...(lowest - 1) }
        if let w = wanted[task], w >= from { return from...w }
        return nil
    }

    /// The highest seq seen of a task with a gap.
    public func highestWanted(for task: String) -> Int? { wanted[task] }

    public var tasksWithGaps: [String] { Set(held.keys).union(wanted.keys).sorted() }
    public var heldCount: Int { heldTotal }

    /// Lets go of a task's held events (their wait timed out). The gap stays, so a fill
    /// fetches them over REST.
    public mutating func releaseHeld(_ task: String) {
        dropHeld(task, counted: true) { _ in true }
    }

    /// The server's REST answer has nothing after the task's mark: what was seen up to `upTo`
    /// is not the server's (or not yet), so it is forgotten, gap included. A later live event
    /// or resync brings it back if it is real.
    public mutating func forget(_ task: String, upTo: Int) {
        dropHeld(task, counted: true) { $0 <= upTo }
        if let w = wanted[task], w <= upTo { wanted[task] = nil }
    }

    private mutating func dropHeld(_ task: String, counted: Bool, where shouldDrop: (Int) -> Bool) {
        guard var waiting = held[task] else { return }
        for seq in waiting.keys where shouldDrop(seq) {
            if let e = waiting.removeValue(forKey: seq) {
                heldTotal -= 1
                heldBytes -= Self.size(of: e)
                if counted { heldDropped += 1 }
            }
        }
        held[task] = waiting.isEmpty ? nil : waiting
    }

    /// Holds an event above a gap, then restores the bounds: over the task's cap, or over the
    /// totals, the held events with the highest seqs go first (the fill reaches them last).
    /// Each cut goes a tenth below the bound, so a flood does not sort on every event.
    private mutating func hold(_ event: TaskEvent) {
        let task = event.taskID
        held[task, default: [:]][event.seq] = event
        heldTotal += 1
        heldBytes += Self.size(of: event)
        wanted[task] = max(wanted[task] ?? 0, event.seq)
        if let count = held[task]?.count, count > maxHeldPerTask {
            dropHighest(of: task, count: count - maxHeldPerTask + maxHeldPerTask / 10)
        }
        while heldTotal > maxHeldTotal || heldBytes > maxHeldBytes,
            let biggest = held.max(by: { $0.value.count < $1.value.count })
        {
            let overCount = heldTotal - maxHeldTotal + maxHeldTotal / 10
            let byteShare = heldBytes > maxHeldBytes ? (biggest.value.count + 1) / 2 : 0
            dropHighest(of: biggest.key, count: max(1, overCount, byteShare))
        }
    }

    private mutating func dropHighest(of task: String, count: Int) {
        guard let waiting = held[task], count > 0 else { return }
        guard let lowestDropped = waiting.keys.sorted().suffix(count).first else { return }
        dropHeld(task, counted: true) { $0 >= lowestDropped }
    }

    /// What a held event costs, roughly: its text plus a fixed overhead.
    static func size(of event: TaskEvent) -> Int {
        let text: Int
        switch event.payload {
        case .output(let t, let stream): text = t.utf8.count + stream.utf8.count
        case .status(_, _, let reason): text = reason?.utf8.count ?? 0
        case .completionGate(_, let summary, let body): text = (summary?.utf8.count ?? 0) + body.utf8.count
        case .supervisorQuestion(let id, let t, let directive):
            text = id.utf8.count + t.utf8.count + (directive?.utf8.count ?? 0)
        case .unknown: text = 0
        }
        return 128 + event.taskID.utf8.count + text
    }
}
