import Foundation

/// Which objects make a needs-you item (`NeedsYouItem`): pure functions of what the server
/// said, shared by the dashboard's store and `makima-tui wait --needs-you`.
public enum NeedsYouRules {
    /// A failure older than this is history, not something waiting: a mesh with years of
    /// failed tasks does not open on hundreds of items.
    public static let failureWindow: TimeInterval = 86_400
    /// The most items of one kind held: past it the oldest go.
    public static let keptPerKind = 500

    public static func question(_ directive: Directive, clock: ClockOffset) -> NeedsYouItem? {
        guard directive.hasPendingQuestion else { return nil }
        let q = directive.pendingQuestion
        let qid = q?.id ?? ""
        return NeedsYouItem(
            kind: .question, subjectID: qid.isEmpty ? directive.id : qid, title: q?.text ?? directive.title,
            since: (q?.askedAt ?? directive.updatedAt).map(clock.local), link: DeepLink(.directive, directive.id),
            taskID: q?.taskID)
    }

    /// A failed task within `failureWindow` of `now` (a task without any time counts: nothing
    /// says it is old).
    public static func failure(_ task: MeshTask, clock: ClockOffset, now: Date) -> NeedsYouItem? {
        guard task.status == .failed else { return nil }
        let at = (task.completedAt ?? task.updatedAt).map(clock.local)
        if let at, now.timeIntervalSince(at) > failureWindow { return nil }
        return NeedsYouItem(
            kind: .failed, subjectID: task.id, title: task.isUnnamed ? nil : task.displayTitle, since: at,
            link: DeepLink(.task, task.id), taskID: task.id)
    }

    public static func offline(_ daemon: Daemon, since: Date?) -> NeedsYouItem? {
        guard !daemon.status.isOnline, (daemon.runningTasks ?? 0) > 0 else { return nil }
        return NeedsYouItem(
            kind: .offline, subjectID: daemon.id, title: daemon.hostname, since: since, link: nil)
    }

    /// Oldest first (what waited longest leads); items with no time last, then by id so the
    /// order never flickers.
    public static func ordered(_ items: some Sequence<NeedsYouItem>) -> [NeedsYouItem] {
        items.sorted { a, b in
            switch (a.since, b.since) {
            case (let x?, let y?) where x != y: x < y
            case (.some, nil): true
            case (nil, .some): false
            default: a.id < b.id
            }
        }
    }
}
