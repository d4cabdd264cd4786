import Foundation

/// The one shape of the engine's page-fetch loops (a task's hole fill, a catch-up): a step
/// either moves the loop on or is a setback (an error, an answer that moved nothing). After
/// setback number n the step runs again after `delay(afterFailures: n)`, doubling from the
/// policy's `initial` up to its `cap` and never shorter than a server's `Retry-After` (cut to
/// `retryAfterCap`), until `attempts` setbacks in a row, or the caller's `stop`, ends it.
///
/// It never sleeps: it says how long to wait, and the caller hands the next step to the
/// fetch pool with that delay (`WorkerPool.submit(after:)`, on the pipeline's clock), so no
/// thread is held meanwhile and a test reads the delays without waiting them. The delays are
/// `BackoffPolicy`'s, without jitter (a loop per task, not clients coming back together).
public struct RetryLoop: Sendable, Equatable {
    /// Setbacks in a row before the loop gives up (at least 1).
    public let attempts: Int
    public let policy: BackoffPolicy

    public init(attempts: Int, initial: TimeInterval, cap: TimeInterval, retryAfterCap: TimeInterval) {
        self.attempts = max(1, attempts)
        policy = BackoffPolicy(
            initial: max(0, initial), multiplier: 2, cap: max(0, cap), jitter: 0, retryAfterCap: retryAfterCap)
    }

    /// What follows a setback.
    public enum Next: Sendable, Equatable {
        /// Run the step again after this many seconds.
        case retry(after: TimeInterval)
        /// Stop: `attempts` setbacks in a row, or the caller said stop.
        case giveUp
    }

    /// The wait before the step that follows `failures` setbacks in a row: none before any,
    /// then the policy's doubling delay, at least the server's `retryAfter` (at most
    /// `retryAfterCap`); never more than the larger of `cap` and `retryAfterCap`.
    public func delay(afterFailures failures: Int, retryAfter: TimeInterval? = nil) -> TimeInterval {
        guard failures > 0 else { return 0 }
        let base = policy.baseDelay(afterFailures: failures)
        guard let wait = policy.serverWait(retryAfter) else { return base }
        return max(base, wait)
    }

    /// After setback number `failures` (1, 2, …): give up once it reaches `attempts` or when
    /// `stop` (a cancelled engine, a refused key, nothing left to fetch), else retry after the
    /// delay.
    public func next(afterSetback failures: Int, retryAfter: TimeInterval? = nil, stop: Bool = false) -> Next {
        if stop || failures >= attempts { return .giveUp }
        return .retry(after: delay(afterFailures: failures, retryAfter: retryAfter))
    }
}
