import Foundation

/// Something that waits on the operator: the one definition the masthead count, Home's first
/// card, `n`/`N`, notifications and `makima-tui wait --needs-you` share.
///
/// - a supervisor question waiting on a directive;
/// - a completion gate a running task says is ready (its newest `task.completion_gate` has
///   `ready: true` and no final status came after it);
/// - a task failed in the last `NeedsYouRules.failureWindow` (by the time it failed, on our clock);
/// - a daemon not online while it still holds running tasks.
///
/// An item leaves when what made it goes (the question answered on the web, the task run
/// again or completed, the daemon back) or when the operator acknowledges it (`x`, kept in
/// the cache).
public struct NeedsYouItem: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable, CaseIterable {
        case question
        case gate
        case failed
        case offline
    }
    public var kind: Kind
    /// What the item is about: the directive, the task, the daemon.
    public var subjectID: String
    /// `question:<question id or directive id>`, `gate:<task>`, `failed:<task>`, `offline:<daemon>`:
    /// what an acknowledgement is kept under.
    public var id: String { "\(kind.rawValue):\(subjectID)" }
    /// Server text, already cleaned where it arrived (one line).
    public var title: String?
    /// Since when, on this machine's clock; nil when nothing says.
    public var since: Date?
    /// Where Enter and `n` open it; nil for a daemon (no link names one: the Daemons pane).
    public var link: DeepLink?
    /// The task it concerns (a question's task, the gate's, the failure's), for the output view.
    public var taskID: String?

    public init(kind: Kind, subjectID: String, title: String?, since: Date?, link: DeepLink?, taskID: String? = nil) {
        self.kind = kind
        self.subjectID = subjectID
        self.title = title
        self.since = since
        self.link = link
        self.taskID = taskID
    }

    /// Ids longer than this are not ours (a damaged cache row).
    public static let longestID = 300

    /// What the card and the CLI say of its kind.
    public var label: String {
        switch kind {
        case .question: "question"
        case .gate: "gate ready"
        case .failed: "failed"
        case .offline: "daemon offline"
        }
    }

    /// The words shown for it: its title, else the subject's short id.
    public var text: String { title.flatMap { $0.isEmpty ? nil : $0 } ?? String(subjectID.prefix(8)) }
}
