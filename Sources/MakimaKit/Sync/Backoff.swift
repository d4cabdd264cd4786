import Foundation

public struct BackoffPolicy: Sendable, Equatable {
    /// The delay after the first failure.
    public var initial: TimeInterval
    public var multiplier: Double
    /// No delay is longer than this, jitter included.
    public var cap: TimeInterval
    /// Each delay is `base × (1 + j)`, `j` uniform in `[-jitter, +jitter)`, then cut to `cap`:
    /// with the defaults a delay lies in `[0.8 × base, min(1.2 × base, 30 s)]`, so clients
    /// that lost the server together do not come back together.
    public var jitter: Double
    /// A connection that stayed open at least this long counts as healthy: the next failure
    /// starts again from `initial`. Shorter ones (a flapping server) keep climbing.
    public var healthyAfter: TimeInterval
    /// The most of a server's `Retry-After` obeyed (it may exceed `cap`: the server asked); a
    /// server asking for longer is tried again after this.
    public var retryAfterCap: TimeInterval

    public init(
        initial: TimeInterval = 1, multiplier: Double = 2, cap: TimeInterval = 30, jitter: Double = 0.2,
        healthyAfter: TimeInterval = 10, retryAfterCap: TimeInterval = 300
    ) {
        self.initial = initial
        self.multiplier = multiplier
        self.cap = cap
        self.jitter = min(max(jitter, 0), 1)
        self.healthyAfter = healthyAfter
        self.retryAfterCap = retryAfterCap
    }

    /// The wait a server's `Retry-After` imposes: nil for none, nothing negative, not finite or
    /// zero, at most `retryAfterCap`.
    public func serverWait(_ retryAfter: TimeInterval?) -> TimeInterval? {
        guard let retryAfter, retryAfter.isFinite, retryAfter > 0 else { return nil }
        return min(retryAfter, max(0, retryAfterCap))
    }

    /// Before jitter: `initial × multiplier^(failures − 1)`, at most `cap` (1, 2, 4, 8, 16, 30, 30 …).
    public func baseDelay(afterFailures failures: Int) -> TimeInterval {
        guard failures > 0 else { return 0 }
        return min(initial * pow(multiplier, Double(min(failures, 64) - 1)), cap)
    }
}

/// When to try the next reconnect. Pure: the time comes in as arguments and randomness from the
/// generator given at creation, so tests drive it with a fixed clock and a seeded generator.
public struct Backoff {
    public let policy: BackoffPolicy
    /// Failed attempts (or short-lived connections) since the last healthy connection.
    public private(set) var failures = 0
    /// When the next attempt is due; nil while connecting or connected.
    public private(set) var nextRetry: Date?
    /// Before this no attempt is made, not even on `retryNow`: the server's `Retry-After`.
    public private(set) var notBefore: Date?
    private var openedAt: Date?
    private var random: any RandomNumberGenerator

    public init(
        policy: BackoffPolicy = BackoffPolicy(), random: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        self.policy = policy
        self.random = random
    }

    public mutating func connectionOpened(at now: Date) {
        openedAt = now
        nextRetry = nil
    }

    /// After a connection that opened; a healthy one resets the sequence.
    public mutating func connectionClosed(at now: Date) {
        if let openedAt, now.timeIntervalSince(openedAt) >= policy.healthyAfter { failures = 0 }
        openedAt = nil
    }

    /// Counts a failure and returns when to try again: never before the server's `retryAfter`
    /// (bounded by `BackoffPolicy.serverWait`), which `retryNow` does not cut short either.
    @discardableResult
    public mutating func scheduleRetry(now: Date, retryAfter: TimeInterval? = nil) -> Date {
        failures += 1
        let base = policy.baseDelay(afterFailures: failures)
        let unit = Double(random.next() >> 11) * 0x1p-53  // uniform in [0, 1)
        let j = (unit * 2 - 1) * policy.jitter
        let delay = min(base * (1 + j), policy.cap)
        notBefore = policy.serverWait(retryAfter).map { now.addingTimeInterval($0) }
        let at = max(now.addingTimeInterval(delay), notBefore ?? now)
        nextRetry = at
        return at
    }

    /// The user asked to retry: the pending wait ends now, or when the server's `Retry-After`
    /// allows. The failure count stays, so if this attempt fails too the next wait continues
    /// the sequence rather than restarting it.
    public mutating func retryNow(now: Date) {
        if nextRetry != nil { nextRetry = max(now, notBefore ?? now) }
    }

    public func isDue(now: Date) -> Bool {
        guard let nextRetry else { return true }
        return now >= nextRetry
    }
}
