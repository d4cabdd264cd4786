import Foundation
import Synchronization

/// Fetches the tasks the client knows by id alone (an event, or a directive's question, named
/// a task no list held yet: it started after the last list read), so their rows show a title,
/// daemon and contract within a second instead of at the next list read.
///
/// The newest ids go first (the rows on screen are the newest tasks' rows), and the server
/// decides which ids arrive, so everything here is bounded: the ids waiting (`maxPending`;
/// past it the oldest waiting is dropped, and asked for again if it is named again later),
/// the ids already asked for, found or not (`remembered`, never asked twice; past it the older
/// half is forgotten), the requests (a `TokenBucket`: `burst` at once, then `perSecond`), and
/// the requests in flight (one job at a time on the engine's pool of user fetches, fetching
/// its ids one after another, at most `batch` of them).
public final class TaskNamer: Sendable {
    public struct Limits: Sendable {
        public var burst = 8
        public var perSecond: Double = 4
        public var maxPending = 256
        public var remembered = 4_096
        public var batch = 16
        public init() {}
    }

    public struct Stats: Sendable, Equatable {
        /// Ids taken into the queue, and those dropped because it was full.
        public var queued = 0
        public var dropped = 0
        /// Ids handed to the fetch (each one request).
        public var asked = 0
        /// Every job's `Report.answers`, summed.
        public var answers = Answers()
        /// Ids waiting now.
        public var pending = 0
    }

    /// How the server answered the ids fetched: a task, or 404 (neither is asked for again).
    public struct Answers: Sendable, Equatable {
        public var fetched = 0
        public var notFound = 0
        public init(fetched: Int = 0, notFound: Int = 0) {
            self.fetched = fetched
            self.notFound = notFound
        }
    }

    /// What one job's fetches came to: the ids whose fetch failed otherwise than by a 404 are
    /// forgotten, so a later event asks for them again (through the same bucket).
    public struct Report: Sendable {
        public var answers = Answers()
        public var failed: [String] = []
        public init(answers: Answers = Answers(), failed: [String] = []) {
            self.answers = answers
            self.failed = failed
        }
    }

    private struct State {
        var pending: [String] = []
        var waiting: Set<String> = []
        var remembered: Set<String> = []
        var rememberedOrder: [String] = []
        var bucket: TokenBucket
        var scheduled = false
        var stats = Stats()
    }

    static let jobKey = "name unknown tasks"
    public let limits: Limits
    private let state: Mutex<State>
    private let pool: WorkerPool
    private let now: @Sendable () -> Date
    private let fetch: @Sendable ([String]) -> Report

    /// `fetch` gets each job's ids (already counted against the bucket) and fetches them.
    public init(
        limits: Limits = Limits(), pool: WorkerPool, now: @escaping @Sendable () -> Date = { Date() },
        fetch: @escaping @Sendable ([String]) -> Report
    ) {
        self.limits = limits
        self.pool = pool
        self.now = now
        self.fetch = fetch
        state = Mutex(State(bucket: TokenBucket(capacity: limits.burst, perSecond: limits.perSecond, now: now())))
    }

    /// Ids the client holds no name for, oldest first: queued unless already asked for or
    /// waiting.
    public func note(_ ids: some Sequence<String>) {
        let start = state.withLock { s -> Bool in
            for id in ids where !id.isEmpty && !s.remembered.contains(id) {
                if s.pending.count >= limits.maxPending {
                    let oldest = s.pending.removeFirst()
                    s.waiting.remove(oldest)
                    s.remembered.remove(oldest)
                    s.stats.dropped += 1
                }
                s.pending.append(id)
                s.waiting.insert(id)
                remember(id, in: &s)
                s.stats.queued += 1
            }
            s.stats.pending = s.pending.count
            guard !s.pending.isEmpty, !s.scheduled else { return false }
            s.scheduled = true
            return true
        }
        if start { schedule(after: 0) }
    }

    public var stats: Stats { state.withLock { $0.stats } }

    private func remember(_ id: String, in s: inout State) {
        s.remembered.insert(id)
        s.rememberedOrder.append(id)
        guard s.rememberedOrder.count > limits.remembered else { return }
        let drop = s.rememberedOrder.prefix(s.rememberedOrder.count / 2)
        for gone in drop where !s.waiting.contains(gone) { s.remembered.remove(gone) }
        s.rememberedOrder.removeFirst(drop.count)
    }

    private func schedule(after delay: TimeInterval) {
        let queued = pool.submit(key: Self.jobKey, after: delay) { [self] in run() }
        if !queued { state.withLock { $0.scheduled = false } }
    }

    /// One job: the ids the bucket allows now, fetched; then the next job when the bucket
    /// refills, or none when nothing waits (or the bucket never refills).
    private func run() {
        let ids = state.withLock { s -> [String] in
            var out: [String] = []
            while out.count < limits.batch, !s.pending.isEmpty, s.bucket.take(now: now()) {
                let id = s.pending.removeLast()
                s.waiting.remove(id)
                out.append(id)
            }
            s.stats.asked += out.count
            s.stats.pending = s.pending.count
            return out
        }
        let report = ids.isEmpty ? Report() : fetch(ids)
        let next = state.withLock { s -> TimeInterval? in
            s.stats.answers.fetched += report.answers.fetched
            s.stats.answers.notFound += report.answers.notFound
            for id in report.failed { s.remembered.remove(id) }
            guard !s.pending.isEmpty, let wait = s.bucket.wait(now: now()) else {
                s.scheduled = false
                return nil
            }
            return wait
        }
        if let next { schedule(after: next) }
    }
}
