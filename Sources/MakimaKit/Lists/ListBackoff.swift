import Foundation
import Synchronization

/// Spaces out the refreshes of a list that was cut at a bound (`ListPager`): such a list
/// costs the most a read may cost every time, so while one backs off its last result is
/// given again without asking the server, for 1 minute, then 2, 4, … up to 30. The user is
/// told once per list when it starts; a refresh that reads the whole list again ends it.
public final class ListBackoff: Sendable {
    public static let firstInterval: TimeInterval = 60
    public static let longestInterval: TimeInterval = 30 * 60

    private struct Entry {
        var until: Date
        var interval: TimeInterval
        var last: ListPayload
    }
    private let entries = Mutex<[String: Entry]>([:])
    private let now: @Sendable () -> Date
    private let notice: @Sendable (String) -> Void

    public init(now: @escaping @Sendable () -> Date = { Date() }, notice: @escaping @Sendable (String) -> Void) {
        self.now = now
        self.notice = notice
    }

    /// The list named `name` (one entry per `key`), read by `read` unless it is backing off.
    public func fetch(key: String, name: String, _ read: () throws -> ListPayload) rethrows -> ListPayload {
        let t = now()
        if let waiting = entries.withLock({ $0[key].flatMap { t < $0.until ? $0.last : nil } }) { return waiting }
        let payload = try read()
        guard let bound = payload.bound else {
            entries.withLock { _ = $0.removeValue(forKey: key) }
            return payload
        }
        let first = entries.withLock { list -> Bool in
            let previous = list[key]
            let interval = min(Self.longestInterval, previous.map { $0.interval * 2 } ?? Self.firstInterval)
            list[key] = Entry(until: t.addingTimeInterval(interval), interval: interval, last: payload)
            return previous == nil
        }
        if first {
            notice(
                "the \(name) list is larger than one refresh reads (\(bound)): showing its first \(payload.count) items, refreshed less often"
            )
        }
        return payload
    }
}
