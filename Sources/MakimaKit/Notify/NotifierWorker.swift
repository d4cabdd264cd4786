import Foundation
import Synchronization

/// Runs the helper programs of desktop notifications (tmux's status line, notify-send) on one
/// thread, one child at a time, each with a timeout. The queue is one digest: what arrives
/// while a child runs is merged into it ("5 tasks failed"), so a flood of events costs one
/// thread and one child at a time, never one each.
public final class NotifierWorker: Sendable {
    /// Turns a digest into the programs to run (executable and arguments), in order.
    public typealias Commands = @Sendable (NotificationDigest) -> [(String, [String])]

    public struct Stats: Sendable, Equatable {
        public var childrenStarted = 0
        public var childrenTimedOut = 0
        public var mostChildrenAtOnce = 0
        public var mostWorkersAtOnce = 0
    }

    private struct State {
        var pending = NotificationDigest()
        var workerRunning = false
        var workers = 0
        var children = 0
        var stats = Stats()
        var stopped = false
    }

    private let state = Mutex(State())
    private let commands: Commands
    private let environment: [String: String]
    private let timeout: Double

    public init(environment: [String: String], timeout: Double = 5, commands: @escaping Commands) {
        self.environment = ChildEnvironment.filter(environment)
        self.timeout = timeout
        self.commands = commands
    }

    public var stats: Stats { state.withLock { $0.stats } }

    /// True while a digest waits or a child runs.
    public var isBusy: Bool { state.withLock { $0.workerRunning } }

    /// Queues `digest` (merged with what already waits); starts the worker when none runs.
    public func submit(_ digest: NotificationDigest) {
        guard !digest.isEmpty else { return }
        let start = state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.pending.merge(digest)
            guard !s.workerRunning else { return false }
            s.workerRunning = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in drain() }
        thread.name = "makima-notifier"
        thread.start()
    }

    /// No new work after this; a running child finishes (or times out) on its own.
    public func stop() { state.withLock { $0.stopped = true } }

    /// Takes the waiting digest until none is left, then ends the thread.
    private func drain() {
        state.withLock {
            $0.workers += 1
            $0.stats.mostWorkersAtOnce = max($0.stats.mostWorkersAtOnce, $0.workers)
        }
        while true {
            let next = state.withLock { s -> NotificationDigest? in
                if s.pending.isEmpty || s.stopped {
                    s.workerRunning = false
                    s.workers -= 1
                    return nil
                }
                let d = s.pending
                s.pending = NotificationDigest()
                return d
            }
            guard let digest = next else { return }
            for (path, args) in commands(digest) { run(path, args) }
        }
    }

    private func run(_ path: String, _ args: [String]) {
        state.withLock {
            $0.children += 1
            $0.stats.childrenStarted += 1
            $0.stats.mostChildrenAtOnce = max($0.stats.mostChildrenAtOnce, $0.children)
        }
        // A helper that is missing or fails is not worth more: the toast and the bell told the operator.
        let outcome = ChildProcess.run(path, args, environment: environment, timeout: timeout)
        state.withLock {
            $0.children -= 1
            if outcome == .timedOut { $0.stats.childrenTimedOut += 1 }
        }
    }
}
