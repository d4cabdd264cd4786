import Foundation
import Synchronization

/// Runs list fetches for the polling schedule and the refresh key: never two identical
/// requests in flight, automatic refreshes back off after errors (30 s, 60 s … 5 min), a
/// forced refresh (the user's key) skips the backoff, and a 401 stops everything until
/// `resume()` (after re-authentication). A server's `Retry-After` (429/503) holds every
/// refresh of that query, forced ones too, for as long as it asked (at most
/// `maxRetryAfter`). Results go out as `SyncUpdate`s.
///
/// A reconnect reads each list at most once: after `opened()` (a WebSocket open),
/// `refreshAfterOpen` fetches a list only if no fetch of it started since, so the engine's
/// lists for every open and the dashboard's for the screen it shows never read one list twice.
public final class RefreshCoordinator: Sendable {
    public struct Failure: Sendable {
        public var message: String
        public var isUnauthorized: Bool
        /// The wait the server asked for, if it did.
        public var retryAfter: TimeInterval?
        public init(message: String, isUnauthorized: Bool, retryAfter: TimeInterval? = nil) {
            self.message = message
            self.isUnauthorized = isUnauthorized
            self.retryAfter = retryAfter
        }
    }

    private struct State {
        var inFlight = Set<ListQuery>()
        var failures: [ListQuery: Int] = [:]
        var notBefore: [ListQuery: Date] = [:]
        /// Set by a `Retry-After`: not even a forced refresh goes out before it.
        var serverHold: [ListQuery: Date] = [:]
        /// The lists whose fetch started since the last `opened()`.
        var sinceOpen = Set<ListQuery>()
        var stopped = false
    }

    /// The most lists `sinceOpen` remembers (scopes make many task lists); past it a list is
    /// not noted, and at worst fetched again after the same open.
    static let sinceOpenCapacity = 1024

    private let state = Mutex(State())
    private let fetch: @Sendable (ListQuery) throws -> ListPayload
    private let classify: @Sendable (Error) -> Failure
    private let deliver: @Sendable (SyncUpdate) -> Void
    private let now: @Sendable () -> Date
    private let spawn: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// `fetch` blocks (it runs on a thread `spawn` provides; by default a new `Thread`).
    public init(
        fetch: @escaping @Sendable (ListQuery) throws -> ListPayload,
        classify: @escaping @Sendable (Error) -> Failure,
        deliver: @escaping @Sendable (SyncUpdate) -> Void,
        now: @escaping @Sendable () -> Date = { Date() },
        spawn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { work in Thread.detachNewThread(work) }
    ) {
        self.fetch = fetch
        self.classify = classify
        self.deliver = deliver
        self.now = now
        self.spawn = spawn
    }

    public static func backoffDelay(failures: Int) -> TimeInterval {
        guard failures > 0 else { return 0 }
        return min(300, 30 * pow(2, Double(min(failures, 32) - 1)))
    }

    /// The longest `Retry-After` obeyed; a server asking for more is asked again after this.
    public static let maxRetryAfter: TimeInterval = 600

    /// Starts a fetch unless one for the same query is in flight, polling is stopped by a 401,
    /// or (when not forced) the query is backing off. Returns whether a fetch started.
    @discardableResult
    public func refresh(_ query: ListQuery, force: Bool = false) -> Bool {
        let t = now()
        var held: TimeInterval?
        let started = state.withLock { s -> Bool in
            if s.stopped || s.inFlight.contains(query) { return false }
            if let hold = s.serverHold[query], t < hold {
                if force { held = hold.timeIntervalSince(t) }
                return false
            }
            if !force, let nb = s.notBefore[query], t < nb { return false }
            s.inFlight.insert(query)
            if s.sinceOpen.count < Self.sinceOpenCapacity { s.sinceOpen.insert(query) }
            return true
        }
        if let held {
            deliver(.listFailed(query, message: "the server asked to wait; retrying in \(Int(held.rounded(.up))) s"))
        }
        guard started else { return false }
        deliver(.listLoading(query))
        spawn { [self] in run(query) }
        return true
    }

    /// A WebSocket opened: what was fetched before it may have missed what happened while it
    /// was down, so every list counts as not fetched since.
    public func opened() { state.withLock { $0.sinceOpen = [] } }

    /// A forced refresh of `query`, unless a fetch of it started since the last `opened()`
    /// (one full read per list per reconnect, whoever asks). Returns whether a fetch started.
    @discardableResult
    public func refreshAfterOpen(_ query: ListQuery) -> Bool {
        if state.withLock({ $0.sinceOpen.contains(query) }) { return false }
        return refresh(query, force: true)
    }

    public func resume() {
        state.withLock {
            $0.stopped = false
            $0.failures = [:]
            $0.notBefore = [:]
            $0.serverHold = [:]
        }
    }
    public var isStopped: Bool { state.withLock { $0.stopped } }
    public func isInFlight(_ q: ListQuery) -> Bool { state.withLock { $0.inFlight.contains(q) } }

    private func run(_ query: ListQuery) {
        do {
            let payload = try fetch(query)
            state.withLock { s in
                s.inFlight.remove(query)
                s.failures[query] = nil
                s.notBefore[query] = nil
                s.serverHold[query] = nil
            }
            deliver(.list(query, payload, fetchedAt: now(), fromCache: false))
        } catch {
            let failure = classify(error)
            let t = now()
            state.withLock { s in
                s.inFlight.remove(query)
                if failure.isUnauthorized { s.stopped = true }
                let n = (s.failures[query] ?? 0) + 1
                s.failures[query] = n
                var delay = Self.backoffDelay(failures: n)
                if let after = failure.retryAfter, after.isFinite, after > 0 {
                    let wait = min(after, Self.maxRetryAfter)
                    s.serverHold[query] = t.addingTimeInterval(wait)
                    delay = max(delay, wait)
                }
                s.notBefore[query] = t.addingTimeInterval(delay)
            }
            deliver(
                failure.isUnauthorized
                    ? .unauthorized(message: failure.message) : .listFailed(query, message: failure.message))
        }
    }
}
