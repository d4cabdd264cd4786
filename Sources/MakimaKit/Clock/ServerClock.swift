import Foundation
import Synchronization

/// Measures one server's clock against ours (`ClockOffset`), from two kinds of evidence:
///
/// - the `Date` header of every HTTP response: the server's time, to the second, somewhere
///   between sending the request and reading the header; taken at the middle of that span,
///   plus half a second for the truncated fraction. Samples from a round trip longer than
///   `maxRoundTrip` say too little and are skipped.
/// - a live event's `ts` against when it arrived: the event was stamped before it arrived, so
///   `ts - arrival` is a lower bound of the offset (a delayed event only lowers it). It is used
///   when no `Date` header was seen, and lifts the header's estimate when the events' own
///   clock is provably later (a proxy in front of the server answering with its own `Date`).
///
/// Each kind keeps its last `window` samples and its median is taken, so one odd response or
/// event moves nothing; a sample more than `ClockOffset.bound` away is ignored. Thread-safe:
/// HTTP threads, the WebSocket thread and the cache writer use one instance.
public final class ServerClock: Sendable {
    public static let window = 15
    public static let maxRoundTrip: TimeInterval = 10
    /// A new estimate is announced (`onChange`) when it moved at least this far from the last
    /// one announced: the whole-second header makes the median step back and forth by a second.
    public static let announceStep: TimeInterval = 2

    private struct State {
        var headerSamples: [TimeInterval] = []
        var eventBounds: [TimeInterval] = []
        var announced = ClockOffset.zero
        var onChange: (@Sendable (ClockOffset) -> Void)?
    }

    private let state = Mutex(State())
    /// This machine's clock (tests pass their own).
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = { Date() }) { self.now = now }

    /// The current estimate (zero until anything was measured).
    public var offset: ClockOffset { state.withLock { Self.estimate($0) } }

    /// Called with the estimate whenever it moves by `announceStep` or more (on the thread
    /// that measured it), and at once with what was measured before, if anything. One
    /// observer: a later call replaces it.
    public func onChange(_ body: @escaping @Sendable (ClockOffset) -> Void) {
        let known = state.withLock { s -> ClockOffset in
            s.onChange = body
            s.announced = Self.estimate(s)
            return s.announced
        }
        if known != .zero { body(known) }
    }

    /// A response's `Date` header (raw, as received), for a request sent at `sent` whose
    /// headers were read at `received` (both on this machine's clock).
    public func noteDateHeader(_ raw: String?, sent: Date, received: Date) {
        guard let date = HTTPDate.parse(raw) else { return }
        let trip = received.timeIntervalSince(sent)
        guard trip >= 0, trip <= Self.maxRoundTrip else { return }
        let middle = sent.addingTimeInterval(trip / 2)
        add(date.timeIntervalSince(middle) + 0.5, to: \.headerSamples)
    }

    /// Live events (received on the socket outside a replay): each one's `ts` against its
    /// `arrivedAt`. Only the newest few of a batch are taken (a burst says nothing more).
    public func noteLiveEvents(_ events: [TaskEvent]) {
        var samples: [TimeInterval] = []
        for e in events.reversed() {
            guard let ts = e.ts, let arrived = e.arrivedAt else { continue }
            samples.append(ts.timeIntervalSince(arrived))
            if samples.count == 4 { break }
        }
        add(samples.reversed(), to: \.eventBounds)
    }

    private func add(_ sample: TimeInterval, to kind: WritableKeyPath<State, [TimeInterval]>) {
        add([sample], to: kind)
    }

    /// The estimate is made once for the samples together: each one sorts the windows (a
    /// stream's every batch brings samples).
    private func add(_ all: [TimeInterval], to kind: WritableKeyPath<State, [TimeInterval]>) {
        let samples = all.filter { $0.isFinite && abs($0) <= ClockOffset.bound }
        guard !samples.isEmpty else { return }
        let announce = state.withLock { s -> (ClockOffset, @Sendable (ClockOffset) -> Void)? in
            s[keyPath: kind].append(contentsOf: samples)
            if s[keyPath: kind].count > Self.window {
                s[keyPath: kind].removeFirst(s[keyPath: kind].count - Self.window)
            }
            let estimate = Self.estimate(s)
            guard abs(estimate.seconds - s.announced.seconds) >= Self.announceStep, let call = s.onChange else {
                return nil
            }
            s.announced = estimate
            return (estimate, call)
        }
        if let (estimate, call) = announce { call(estimate) }
    }

    private static func estimate(_ s: State) -> ClockOffset {
        let header = median(s.headerSamples)
        let events = median(s.eventBounds)
        switch (header, events) {
        case (let h?, let e?): return ClockOffset(seconds: max(h, e))
        case (let h?, nil): return ClockOffset(seconds: h)
        case (nil, let e?): return ClockOffset(seconds: e)
        case (nil, nil): return .zero
        }
    }

    private static func median(_ values: [TimeInterval]) -> TimeInterval? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
