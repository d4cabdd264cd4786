import Foundation
import Synchronization

/// The one way the client starts a program (tmux's status line, notify-send, xdg-open for a
/// link or the web settings page): one helper thread, one child at a time, each with a
/// timeout that kills it and what it started (`ChildProcess`), in the filtered environment
/// (`ChildEnvironment`) with no descriptor of ours but /dev/null on 0, 1 and 2.
///
/// Work waits in a queue of `capacity` jobs. A job carries a key: one submitted while a job of
/// the same key waits (or, for a `Coalescing.whileWaitingOrRunning` job, runs) is coalesced
/// into it (200 clicks on one link open it once), and one that finds the queue full is dropped and counted, so a flood of events or clicks costs
/// one thread and one child at a time, never one each. A job's commands are made when it
/// starts, so what arrived while it waited (a notification digest) goes out with it.
public final class ChildLauncher: Sendable {
    /// One program to run: the executable's absolute path, its arguments (no shell), and the
    /// seconds it is given before it is killed.
    public struct Command: Sendable, Equatable {
        public var path: String
        public var arguments: [String]
        public var timeout: Double
        /// What the child reads on its stdin (at most `ChildProcess.longestInput` bytes, which
        /// a pipe holds whole: writing it never waits on the child); empty: /dev/null.
        public var input: [UInt8]

        public init(_ path: String, _ arguments: [String], timeout: Double, input: [UInt8] = []) {
            self.path = path
            self.arguments = arguments
            self.timeout = timeout
            self.input = Array(input.prefix(ChildProcess.longestInput))
        }
    }

    /// What became of a submitted job.
    public enum Submission: Sendable, Equatable {
        case queued
        /// A job of the same key was already waiting or running: this one is part of it.
        case coalesced
        /// The queue was full (`capacity` jobs waiting): nothing will run for it.
        case dropped
        case stopped
    }

    /// Which job of the same key takes a new one in.
    public enum Coalescing: Sendable {
        /// Only one that waits: its commands, made when it starts, cover what came since.
        case whileWaiting
        /// One that waits or runs: the same thing again while it is being done is not repeated.
        case whileWaitingOrRunning
    }

    public struct Stats: Sendable, Equatable {
        /// Children started, killed at their timeout, and that could not be started.
        public var childrenStarted = 0, childrenTimedOut = 0, childrenNotStarted = 0
        /// The most children, and helper threads, alive at one time: one each by design.
        public var mostChildrenAtOnce = 0, mostWorkersAtOnce = 0
        /// Jobs taken into a job of the same key, and jobs that found the queue full.
        public var jobsCoalesced = 0, jobsDropped = 0
    }

    private struct Job {
        let key: String
        let commands: @Sendable () -> [Command]
        /// Set for a job whose children's stdout is wanted (`submitCapturing`).
        var finished: (@Sendable ([[UInt8]?]) -> Void)?
    }

    private struct State {
        var waiting: [Job] = []
        var runningKey: String?
        var workerRunning = false
        var workers = 0
        var children = 0
        var stats = Stats()
        var stopped = false
    }

    public static let defaultCapacity = 16
    public let capacity: Int
    /// The environment every child gets (already filtered).
    public let environment: [String: String]
    private let state = Mutex(State())

    /// `environment` is the program's own; children get only what `ChildEnvironment` keeps.
    public init(environment: [String: String], capacity: Int = ChildLauncher.defaultCapacity) {
        self.environment = ChildEnvironment.filter(environment)
        self.capacity = max(1, capacity)
    }

    public var stats: Stats { state.withLock { $0.stats } }

    /// True while a job waits or a child runs.
    public var isBusy: Bool { state.withLock { $0.workerRunning } }

    /// The first executable `name` on the PATH children get (absolute directories only).
    public func executable(_ name: String) -> String? { NotificationRoute.executable(name, environment: environment) }

    /// Queues `command` under `key`.
    @discardableResult
    public func submit(key: String, _ command: Command) -> Submission {
        submit(key: key, coalescing: .whileWaitingOrRunning) { [command] }
    }

    /// Queues a job whose commands are made when it starts; starts the helper thread when none runs.
    @discardableResult
    public func submit(key: String, coalescing: Coalescing, commands: @escaping @Sendable () -> [Command])
        -> Submission
    {
        enqueue(Job(key: key, commands: commands), coalescing: coalescing)
    }

    private func enqueue(_ job: Job, coalescing: Coalescing) -> Submission {
        let key = job.key
        let (submission, start) = state.withLock { s -> (Submission, Bool) in
            guard !s.stopped else { return (.stopped, false) }
            let running = coalescing == .whileWaitingOrRunning && s.runningKey == key
            if running || s.waiting.contains(where: { $0.key == key }) {
                s.stats.jobsCoalesced += 1
                return (.coalesced, false)
            }
            guard s.waiting.count < capacity else {
                s.stats.jobsDropped += 1
                return (.dropped, false)
            }
            s.waiting.append(job)
            guard !s.workerRunning else { return (.queued, false) }
            s.workerRunning = true
            return (.queued, true)
        }
        if start {
            let thread = Thread { [self] in drain() }
            thread.name = "makima-child"
            thread.start()
        }
        return submission
    }

    /// Queues `commands` under `key` with each child's stdout read; `finished` gets, on the
    /// helper thread, one entry per command: what it printed, or nil when it did not exit 0
    /// (not started, failed, or killed at its timeout). Not called for a job that never runs.
    @discardableResult
    public func submitCapturing(
        key: String, _ commands: [Command], finished: @escaping @Sendable ([[UInt8]?]) -> Void
    ) -> Submission {
        enqueue(Job(key: key, commands: { commands }, finished: finished), coalescing: .whileWaitingOrRunning)
    }

    /// Nothing new starts after this; a running child finishes (or times out) on its own.
    public func stop() {
        state.withLock {
            $0.stopped = true
            $0.waiting.removeAll()
        }
    }

    /// Takes the waiting jobs in order until none is left, then ends the thread.
    private func drain() {
        state.withLock {
            $0.workers += 1
            $0.stats.mostWorkersAtOnce = max($0.stats.mostWorkersAtOnce, $0.workers)
        }
        while true {
            let next = state.withLock { s -> Job? in
                s.runningKey = nil
                if s.waiting.isEmpty || s.stopped {
                    s.workerRunning = false
                    s.workers -= 1
                    return nil
                }
                let job = s.waiting.removeFirst()
                s.runningKey = job.key
                return job
            }
            guard let job = next else { return }
            let outputs = job.commands().map { run($0, capture: job.finished != nil) }
            job.finished?(outputs)
        }
    }

    /// Runs one child; what it printed when `capture` and it exited 0.
    private func run(_ command: Command, capture: Bool) -> [UInt8]? {
        state.withLock {
            $0.children += 1
            $0.stats.childrenStarted += 1
            $0.stats.mostChildrenAtOnce = max($0.stats.mostChildrenAtOnce, $0.children)
        }
        // A helper that fails is not worth more: the toast (and the bell) told the operator.
        let (path, arguments, timeout, input) = (command.path, command.arguments, command.timeout, command.input)
        let (outcome, printed) =
            capture
            ? ChildProcess.capture(path, arguments, environment: environment, timeout: timeout, input: input)
            : (ChildProcess.run(path, arguments, environment: environment, timeout: timeout, input: input), [])
        state.withLock {
            $0.children -= 1
            switch outcome {
            case .timedOut: $0.stats.childrenTimedOut += 1
            case .couldNotStart: $0.stats.childrenNotStarted += 1
            case .exited: break
            }
        }
        return capture && outcome == .exited(0) ? printed : nil
    }
}
