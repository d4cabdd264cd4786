import Foundation

public struct MeshNotification: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable { case taskCompleted, taskFailed, supervisorQuestion }
    /// The event id that caused it: the same event replayed cannot notify twice.
    public var id: Int64
    public var kind: Kind
    public var title: String
    public var body: String
    public var link: DeepLink
    public var at: Date
}

/// Decides which applied events deserve the operator's attention. The sequencer already drops
/// duplicates; this also remembers event ids it notified for (a resync may replay an event
/// the sequencer had only held) and ignores anything that happened before the app started.
public struct NotificationPolicy: Sendable {
    public let startedAt: Date
    private var notified = Set<Int64>()

    public init(startedAt: Date) { self.startedAt = startedAt }

    /// `receivedAt` stands in for events without a timestamp.
    public mutating func notifications(for events: [TaskEvent], taskTitles: [String: String] = [:], receivedAt: Date)
        -> [MeshNotification]
    {
        var out: [MeshNotification] = []
        for i in events.indices {
            // Output never notifies: skipped before the event is even copied (a burst is all output).
            if case .output = events[i].payload { continue }
            let e = events[i]
            guard (e.ts ?? receivedAt) >= startedAt, !notified.contains(e.eventID) else { continue }
            let title = taskTitles[e.taskID] ?? e.taskID
            let n: MeshNotification?
            switch e.payload {
            case .status(let status, _, let reason) where status == .completed:
                n = MeshNotification(
                    id: e.eventID, kind: .taskCompleted, title: "Task completed",
                    body: title + (reason.map { " — \($0)" } ?? ""), link: .task(e.taskID), at: e.ts ?? receivedAt)
            case .status(let status, _, let reason) where status == .failed:
                n = MeshNotification(
                    id: e.eventID, kind: .taskFailed, title: "Task failed",
                    body: title + (reason.map { " — \($0)" } ?? ""), link: .task(e.taskID), at: e.ts ?? receivedAt)
            case .supervisorQuestion(_, let text, let directiveID):
                n = MeshNotification(
                    id: e.eventID, kind: .supervisorQuestion, title: "Supervisor question", body: text,
                    link: directiveID.map(DeepLink.directive) ?? .task(e.taskID), at: e.ts ?? receivedAt)
            default:
                n = nil
            }
            if let n {
                notified.insert(e.eventID)
                out.append(n)
            }
        }
        return out
    }
}
