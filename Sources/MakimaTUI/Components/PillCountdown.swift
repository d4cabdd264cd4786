/// Keeps the masthead's offline countdown (`WS//OFFLINE 12s`, 11s, …) from one state change:
/// the sync engine reports "offline, retry in 12 s" once, and the UI counts down itself.
/// Time is injected (monotonic seconds) so it is testable without a clock.
public struct PillCountdown: Equatable, Sendable {
    public private(set) var state: ConnectionPillState = .idle
    private var retryAt: Double?

    public init() {}

    public mutating func set(_ newState: ConnectionPillState, now: Double) {
        state = newState
        if case .offline(let seconds?) = newState { retryAt = now + Double(seconds) } else { retryAt = nil }
    }

    /// The pill as it reads at `now`.
    public func pill(at now: Double) -> ConnectionPillState {
        guard let retryAt else { return state }
        return .offline(secondsToRetry: Int(max(0, retryAt - now).rounded(.up)))
    }

    /// When the shown number next changes, or nil when nothing is counting.
    public func nextChange(after now: Double) -> Double? {
        guard let retryAt, retryAt > now else { return nil }
        let remaining = retryAt - now
        return now + remaining - (remaining.rounded(.up) - 1) + 0.001
    }
}
