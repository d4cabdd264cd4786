import Foundation

public struct MeshNotification: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable { case taskCompleted, taskFailed, supervisorQuestion }
    /// The event id that caused it: the same event replayed cannot notify twice.
    public var id: Int64
    public var kind: Kind
    public var title: String
    public var body: String
    public var link: DeepLink
    /// When it happened, on our clock: the event's `ts` corrected by the server's offset, or
    /// when it arrived for an event without one.
    public var at: Date
}

/// Decides which applied events deserve the operator's attention: those that arrived live
/// on the stream (`arrived`), whatever their timestamp (a server whose clock is behind, or one
/// that stamps events when they were produced upstream, still notifies). Events replayed by a
/// resync, fetched by a REST catch-up or a hole fill, or read at start-up never notify.
/// Both memories are bounded by event id: a replay of an event already notified for stays
/// silent, and a flood of events cannot grow them.
public struct NotificationPolicy: Sendable {
    /// How many event ids each memory keeps (the older half is forgotten past it).
    public static let capacity = 4096
    private var live = BoundedIDSet(capacity: capacity)
    private var notified = BoundedIDSet(capacity: capacity)

    public init() {}

    /// Events that arrived live on the stream (not a replay): they notify once applied.
    public mutating func arrived(_ events: [TaskEvent]) {
        // By index: a burst is all output, and no event is copied to be skipped.
        for i in events.indices where Self.mayNotify(events[i]) { live.insert(events[i].eventID) }
    }

    private static func mayNotify(_ e: TaskEvent) -> Bool {
        switch e.payload {
        case .status(let status, _, _): return status == .completed || status == .failed
        case .supervisorQuestion: return true
        default: return false
        }
    }

    /// Each one's time is its event's `ts` read on our clock through `serverClock`; its
    /// arrival, else `receivedAt`, stands in for events without a timestamp.
    public mutating func notifications(
        for events: [TaskEvent], taskTitles: [String: String] = [:], receivedAt: Date, serverClock: ClockOffset = .zero
    ) -> [MeshNotification] {
        var out: [MeshNotification] = []
        for i in events.indices {
            // Output never notifies: skipped before the event is even copied (a burst is all output).
            if case .output = events[i].payload { continue }
            let e = events[i]
            guard live.contains(e.eventID), !notified.contains(e.eventID) else { continue }
            let title = taskTitles[e.taskID] ?? e.taskID
            let at = e.ts.map(serverClock.local) ?? e.arrivedAt ?? receivedAt
            let n: MeshNotification?
            switch e.payload {
            case .status(let status, _, let reason) where status == .completed:
                n = MeshNotification(
                    id: e.eventID, kind: .taskCompleted, title: "Task completed",
                    body: title + (reason.map { " — \($0)" } ?? ""), link: .task(e.taskID), at: at)
            case .status(let status, _, let reason) where status == .failed:
                n = MeshNotification(
                    id: e.eventID, kind: .taskFailed, title: "Task failed",
                    body: title + (reason.map { " — \($0)" } ?? ""), link: .task(e.taskID), at: at)
            case .supervisorQuestion(_, let text, let directiveID):
                n = MeshNotification(
                    id: e.eventID, kind: .supervisorQuestion, title: "Supervisor question", body: text,
                    link: directiveID.map(DeepLink.directive) ?? .task(e.taskID), at: at)
            default:
                n = nil
            }
            if let n {
                live.remove(e.eventID)
                notified.insert(e.eventID)
                out.append(n)
            }
        }
        return out
    }
}

/// A set of event ids that keeps at most `capacity`: past it, the older half is forgotten.
struct BoundedIDSet: Sendable {
    let capacity: Int
    private var current = Set<Int64>()
    private var previous = Set<Int64>()

    init(capacity: Int) { self.capacity = max(2, capacity) }

    func contains(_ id: Int64) -> Bool { current.contains(id) || previous.contains(id) }

    mutating func insert(_ id: Int64) {
        guard !contains(id) else { return }
        if current.count >= capacity / 2 {
            previous = current
            current = []
        }
        current.insert(id)
    }

    mutating func remove(_ id: Int64) {
        current.remove(id)
        previous.remove(id)
    }

    var count: Int { current.count + previous.count }
}
