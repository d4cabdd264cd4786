import Synchronization

/// Runs the helper programs of desktop notifications (tmux's status line, notify-send) through
/// the program's `ChildLauncher`. What waits is one digest: what arrives while a child runs is
/// merged into it ("5 tasks failed") and goes out as one job when the launcher gets to it.
public final class NotifierWorker: Sendable {
    /// Turns a digest into the programs to run (executable and arguments), in order.
    public typealias Commands = @Sendable (NotificationDigest) -> [(String, [String])]
    public typealias Stats = ChildLauncher.Stats

    /// The launcher's key for notification jobs: one waits at a time, holding the digest.
    static let jobKey = "desktop-notification"

    private struct State {
        var pending = NotificationDigest()
        var stopped = false
    }

    private let state = Mutex(State())
    private let commands: Commands
    private let launcher: ChildLauncher
    private let timeout: Double

    public init(launcher: ChildLauncher, timeout: Double = 5, commands: @escaping Commands) {
        self.launcher = launcher
        self.timeout = timeout
        self.commands = commands
    }

    /// A worker with a launcher of its own (for `environment`), when it is the program's only one.
    public convenience init(environment: [String: String], timeout: Double = 5, commands: @escaping Commands) {
        self.init(launcher: ChildLauncher(environment: environment), timeout: timeout, commands: commands)
    }

    /// The launcher's counts (children started, most at once).
    public var stats: Stats { launcher.stats }

    /// Queues `digest` (merged with what already waits) as the launcher's notification job.
    public func submit(_ digest: NotificationDigest) {
        guard !digest.isEmpty else { return }
        let queued = state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.pending.merge(digest)
            return true
        }
        guard queued else { return }
        launcher.submit(key: Self.jobKey, coalescing: .whileWaiting) { [self] in
            let digest = state.withLock { s -> NotificationDigest in
                defer { s.pending = NotificationDigest() }
                return s.stopped ? NotificationDigest() : s.pending
            }
            guard !digest.isEmpty else { return [] }
            return commands(digest).map { ChildLauncher.Command($0.0, $0.1, timeout: timeout) }
        }
    }

    /// No new notification after this; a running child finishes (or times out) on its own.
    public func stop() { state.withLock { $0.stopped = true } }
}
