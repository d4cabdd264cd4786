import Foundation

/// What identifies one task event: its task and its place in that task's sequence. The
/// server's `event_id` does not: a server that hands one id to two tasks' events (reused,
/// wrapped, or forged) would otherwise silence the second. Every event has a seq (decoding
/// refuses one without a seq of 1 or more), so task and seq always name it.
public struct EventIdentity: Hashable, Sendable, CustomStringConvertible {
    public var taskID: String
    public var seq: Int

    public var description: String { "\(taskID)#\(seq)" }

    /// What names a notification that no single event caused (a daemon gone offline, a gate
    /// read from a list): the needs-you item's id, with seq 0, which no event has.
    public static func needsYou(_ itemID: String) -> EventIdentity { EventIdentity(taskID: itemID, seq: 0) }
}

extension TaskEvent {
    public var identity: EventIdentity { EventIdentity(taskID: taskID, seq: seq) }
}

public struct MeshNotification: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable { case taskCompleted, taskFailed, supervisorQuestion, gateReady, daemonOffline }
    /// The event that caused it: the same event replayed cannot notify twice.
    public var id: EventIdentity
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
/// Both memories hold events by what identifies them (`EventIdentity`: task and seq, never the
/// server's event id alone) and are bounded: a replay of an event already notified for stays
/// silent, another task's event under a reused event id still notifies, and a flood of events
/// cannot grow them.
public struct NotificationPolicy: Sendable {
    /// How many events each memory keeps (the older half is forgotten past it).
    public static let capacity = 4096
    private var live = BoundedSet<EventIdentity>(capacity: capacity)
    private var notified = BoundedSet<EventIdentity>(capacity: capacity)

    public init() {}

    /// Events that arrived live on the stream (not a replay): they notify once applied.
    public mutating func arrived(_ events: [TaskEvent]) {
        // By index: a burst is all output, and no event is copied to be skipped.
        for i in events.indices where Self.mayNotify(events[i]) { live.insert(events[i].identity) }
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
            let identity = e.identity
            guard live.contains(identity), !notified.contains(identity) else { continue }
            let title = taskTitles[e.taskID] ?? e.taskID
            let at = e.ts.map(serverClock.local) ?? e.arrivedAt ?? receivedAt
            let n: MeshNotification?
            switch e.payload {
            case .status(let status, _, let reason) where status == .completed:
                n = MeshNotification(
                    id: identity, kind: .taskCompleted, title: "Task completed",
                    body: title + (reason.map { " — \($0)" } ?? ""), link: .task(e.taskID), at: at)
            case .status(let status, _, let reason) where status == .failed:
                n = MeshNotification(
                    id: identity, kind: .taskFailed, title: "Task failed",
                    body: title + (reason.map { " — \($0)" } ?? ""), link: .task(e.taskID), at: at)
            case .supervisorQuestion(_, let text, let directiveID):
                n = MeshNotification(
                    id: identity, kind: .supervisorQuestion, title: "Supervisor question", body: text,
                    link: directiveID.map(DeepLink.directive) ?? .task(e.taskID), at: at)
            default:
                n = nil
            }
            if let n {
                live.remove(identity)
                notified.insert(identity)
                out.append(n)
            }
        }
        return out
    }
}

/// A set that keeps at most `capacity` elements: past it, the older half is forgotten.
struct BoundedSet<Element: Hashable & Sendable>: Sendable {
    let capacity: Int
    private var current = Set<Element>()
    private var previous = Set<Element>()

    init(capacity: Int) { self.capacity = max(2, capacity) }

    func contains(_ element: Element) -> Bool { current.contains(element) || previous.contains(element) }

    mutating func insert(_ element: Element) {
        guard !contains(element) else { return }
        if current.count >= capacity / 2 {
            previous = current
            current = []
        }
        current.insert(element)
    }

    mutating func remove(_ element: Element) {
        current.remove(element)
        previous.remove(element)
    }

    var count: Int { current.count + previous.count }
}
