import Foundation

/// A fixed number of threads working through keyed jobs, so fetches the server provokes (one
/// per task with a gap, per task opened) never cost a thread each.
///
/// A job has a key: while one is queued under a key, submitting the same key again only moves
/// its due time earlier. Two jobs of one key never run at once. A job may be due later (a
/// retry that backs off) without holding a thread while it waits: a worker sleeps on the
/// condition until the earliest due job, and exits when nothing is queued. The queue itself is
/// bounded: past `maxQueued` a submission is refused (and counted).
///
/// Written here rather than on Dispatch: a dispatch queue neither bounds its backlog nor
/// drops duplicate work, and its global pool grows threads for blocked work items.
public final class WorkerPool: @unchecked Sendable {
    public struct Stats: Sendable, Equatable {
        public var submitted = 0
        public var refused = 0
        public var ran = 0
        public var peakWorkers = 0
    }

    private struct Job {
        var due: Date
        var priority: Int
        var work: @Sendable () -> Void
    }

    // All state below is guarded by `condition`.
    private let condition = NSCondition()
    private var queued: [String: Job] = [:]
    private var running = Set<String>()
    private var workers = 0
    private var stopped = false
    private var stats = Stats()

    public let name: String
    public let maxWorkers: Int
    public let maxQueued: Int
    private let now: @Sendable () -> Date

    public init(name: String, maxWorkers: Int, maxQueued: Int, now: @escaping @Sendable () -> Date = { Date() }) {
        self.name = name
        self.maxWorkers = max(1, maxWorkers)
        self.maxQueued = max(1, maxQueued)
        self.now = now
    }

    /// Queues `work` under `key`, to run no earlier than `delay` seconds from now. Higher
    /// `priority` runs first among due jobs. Returns false when refused (stopped, or full).
    @discardableResult
    public func submit(
        key: String, after delay: TimeInterval = 0, priority: Int = 0, _ work: @escaping @Sendable () -> Void
    ) -> Bool {
        let due = now().addingTimeInterval(max(0, delay))
        condition.lock()
        defer { condition.unlock() }
        if stopped { return false }
        if var existing = queued[key] {
            existing.due = min(existing.due, due)
            existing.priority = max(existing.priority, priority)
            existing.work = work
            queued[key] = existing
        } else {
            guard queued.count < maxQueued else {
                stats.refused += 1
                return false
            }
            queued[key] = Job(due: due, priority: priority, work: work)
        }
        stats.submitted += 1
        if workers < maxWorkers && workers < queued.count + running.count {
            workers += 1
            stats.peakWorkers = max(stats.peakWorkers, workers)
            let thread = Thread { [self] in workLoop() }
            thread.name = name
            thread.start()
        }
        condition.broadcast()
        return true
    }

    /// Whether a job is queued or running under `key`.
    public func isBusy(_ key: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return queued[key] != nil || running.contains(key)
    }

    /// Keys of the jobs queued or running: a key not among them cannot run until it is
    /// submitted again (what a test on a fake clock checks to know a loop has stopped, instead
    /// of sleeping).
    public var pendingKeys: Set<String> {
        condition.lock()
        defer { condition.unlock() }
        return Set(queued.keys).union(running)
    }

    /// Keys of the jobs queued and not due by `now` (waiting out a delay).
    public var waitingKeys: Set<String> {
        condition.lock()
        defer { condition.unlock() }
        let t = now()
        return Set(queued.filter { $0.value.due > t }.keys)
    }

    /// Makes sleeping workers look at the clock again (after a fake clock moved).
    public func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    public var currentStats: Stats {
        condition.lock()
        defer { condition.unlock() }
        return stats
    }

    public var workerCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return workers
    }

    /// Drops every queued job and refuses new ones; running jobs finish. Waits up to
    /// `timeout` for the workers to end; returns whether they did.
    @discardableResult
    public func stop(timeout: TimeInterval = 0) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        queued.removeAll()
        condition.broadcast()
        let deadline = Date().addingTimeInterval(timeout)
        while workers > 0 {
            if !condition.wait(until: deadline) { break }
        }
        return workers == 0
    }

    private func workLoop() {
        condition.lock()
        while !stopped {
            let t = now()
            // One pass: the best due job (highest priority, then earliest), and the earliest
            // due time of the rest, among keys not running.
            var best: (key: String, job: Job)?
            var nextDue: Date?
            for (key, job) in queued where !running.contains(key) {
                if job.due > t {
                    nextDue = min(nextDue ?? job.due, job.due)
                } else if let b = best?.job,
                    b.priority > job.priority || (b.priority == job.priority && b.due <= job.due)
                {
                    continue
                } else {
                    best = (key, job)
                }
            }
            if let (key, job) = best {
                queued[key] = nil
                running.insert(key)
                condition.unlock()
                job.work()
                condition.lock()
                running.remove(key)
                stats.ran += 1
                condition.broadcast()
                continue
            }
            if queued.isEmpty { break }
            // Something is queued but not due (or its key is running): sleep until the
            // earliest due time, or until a submission or a finished job wakes us.
            let wait = min(max((nextDue ?? t.addingTimeInterval(1)).timeIntervalSince(t), 0.001), 1)
            _ = condition.wait(until: Date().addingTimeInterval(wait))
        }
        workers -= 1
        condition.broadcast()
        condition.unlock()
    }
}
