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

    /// Runs every queued job, in order. UI thread only.
    @MainActor
    @discardableResult
    public func runPending() -> Int {
        let jobs = queue.withLock { q in
            let all = q
            q.removeAll()
            return all
        }
        for job in jobs { job() }
        return jobs.count
    }

    public var pendingCount: Int { queue.withLock { $0.count } }
}
