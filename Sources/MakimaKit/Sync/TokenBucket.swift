import Foundation

/// A token bucket: at most `capacity` at once, then `perSecond` on average. What the server
/// provokes (a fetch per id it names) is spent from one, so a flood of ids cannot become a
/// flood of requests. Not thread-safe: its owner holds it under a lock.
public struct TokenBucket: Sendable {
    public let capacity: Double
    public let perSecond: Double
    private var tokens: Double
    private var filledAt: Date

    public init(capacity: Int, perSecond: Double, now: Date) {
        self.capacity = Double(max(1, capacity))
        self.perSecond = max(0, perSecond)
        tokens = self.capacity
        filledAt = now
    }

    /// Takes one token if there is one.
    public mutating func take(now: Date) -> Bool {
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Seconds until a token is there (nil when none ever will be: a rate of zero).
    public mutating func wait(now: Date) -> TimeInterval? {
        refill(now: now)
        if tokens >= 1 { return 0 }
        guard perSecond > 0 else { return nil }
        return (1 - tokens) / perSecond
    }

    private mutating func refill(now: Date) {
        // A clock that went back refills nothing (and is taken as the new start).
        let elapsed = max(0, now.timeIntervalSince(filledAt))
        tokens = min(capacity, tokens + elapsed * perSecond)
        filledAt = now
    }
}
