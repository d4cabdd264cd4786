import Synchronization

/// How other threads talk to the UI thread: post a closure, and the UI thread runs it on its
/// next turn (it is woken through the wake pipe). The only way in: while the UI thread sits
/// in `poll()`, jobs sent to the main actor by other means do not run.
public final class UIBus: Sendable {
    public typealias Job = @MainActor @Sendable () -> Void

    private let queue = Mutex<[Job]>([])
    private let pipe: WakePipe

    public init(wakePipe: WakePipe) { pipe = wakePipe }

    /// Queues `job` for the UI thread. Safe from any thread.
    public func post(_ job: @escaping Job) {
        let wasEmpty = queue.withLock { q in
            q.append(job)
            return q.count == 1
        }
        if wasEmpty { pipe.wake() }
    }

    /// Wakes the UI thread with no job: for a source the turn drains itself (the engine's
    /// outbox), which has something new.
    public func wakeUp() { pipe.wake() }

    /// Runs every queued job, in order, and the jobs those queue (an answer that asks the next
    /// question, answered at once), up to `rounds` times over: a job that queues itself again
    /// runs once a round, not forever. UI thread only.
    @MainActor
    @discardableResult
    public func runPending(rounds: Int = 8) -> Int {
        var ran = 0
        for _ in 0..<max(1, rounds) {
            let jobs = queue.withLock { q in
                let all = q
                q.removeAll()
                return all
            }
            if jobs.isEmpty { break }
            for job in jobs { job() }
            ran += jobs.count
        }
        return ran
    }

    public var pendingCount: Int { queue.withLock { $0.count } }
}
