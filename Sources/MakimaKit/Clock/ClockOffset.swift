import Foundation

/// How far the server's clock is from this machine's: the server's time minus ours, in
/// seconds (positive: the server is ahead). Every server timestamp the operator reads, or that
/// places an event in time (ages, list times, the status rule, activity counts of history),
/// goes through `local(_:)`, the one correction (docs/architecture.md, "One local clock").
public struct ClockOffset: Sendable, Equatable {
    public var seconds: TimeInterval

    /// Nothing measured yet, or a server on our time.
    public static let zero = ClockOffset(seconds: 0)

    /// The furthest a server's clock is believed to be from ours: a sample beyond it is a
    /// broken or hostile clock (a `Date` of 1970 or 9999), not a skew, and is ignored.
    public static let bound: TimeInterval = 7 * 86_400

    /// Past this the offset is said on SYSTEM// and in Settings. The `Date` header has whole
    /// seconds and a sample carries up to half a round trip of doubt, so a few seconds is
    /// noise; ages are shown to the minute past a minute, and at 30 s a time a user compares
    /// with the masthead clock starts to read wrong.
    public static let noticeable: TimeInterval = 30

    /// `seconds` held within ±`bound` (and 0 for a value that is not a number).
    public init(seconds: TimeInterval) {
        self.seconds = seconds.isFinite ? min(max(seconds, -Self.bound), Self.bound) : 0
    }

    /// A server timestamp as the time it was on this machine's clock.
    public func local(_ serverTime: Date) -> Date { serverTime.addingTimeInterval(-seconds) }

    /// Whether the operator is told about it (see `noticeable`).
    public var isNoticeable: Bool { abs(seconds) > Self.noticeable }

    /// "1 h 02 m behind", "2 d 03 h ahead", "45 s behind": the two largest units.
    public var phrase: String {
        let total = Int(abs(seconds).rounded())
        let (d, h, m, s) = (total / 86_400, total % 86_400 / 3_600, total % 3_600 / 60, total % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let amount =
            d > 0 ? "\(d) d \(two(h)) h" : h > 0 ? "\(h) h \(two(m)) m" : m > 0 ? "\(m) m \(two(s)) s" : "\(s) s"
        return amount + (seconds < 0 ? " behind" : " ahead")
    }
}
