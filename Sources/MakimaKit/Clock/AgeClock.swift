import Foundation
import Synchronization

/// "12s", "4m", "3h", "2d": how old data is, for the stale marker. Every relative age the
/// dashboard draws goes through here, so `AgeClock` learns when the text would change.
public func shortAge(_ seconds: TimeInterval) -> String {
    AgeClock.note(seconds)
    let s = Int(max(0, seconds))
    if s < 60 { return "\(s)s" }
    if s < 3600 { return "\(s / 60)m" }
    if s < 86_400 { return "\(s / 3600)h" }
    return "\(s / 86_400)d"
}

/// The clock of relative ages. A pane's model is built from absolute instants (`fetchedAt`, a
/// heartbeat, a start time) and the time of the build; while it is built inside `tracking`,
/// every age it formats (`shortAge`) notes when its text would change (the next second below a
/// minute, the next minute below an hour…). The dashboard sets one timer for the earliest of
/// those, so it draws a frame only when an age on screen would read differently, and none
/// while nothing shown has an age.
public enum AgeClock {
    private static let earliest = Mutex<TimeInterval?>(nil)
    private static let active = Atomic<Int>(0)

    /// Runs `body`; also returns in how many seconds the first age it formatted changes its
    /// text (nil when it formatted none). Called on one thread (the UI thread).
    public static func tracking<T>(_ body: () -> T) -> (T, TimeInterval?) {
        let outer = earliest.withLock { value -> TimeInterval? in
            defer { value = nil }
            return value
        }
        active.add(1, ordering: .relaxed)
        let result = body()
        active.subtract(1, ordering: .relaxed)
        let inner = earliest.withLock { value -> TimeInterval? in
            // Nested: the outer build sees this one's ages too.
            defer { value = active.load(ordering: .relaxed) > 0 ? [outer, value].compactMap { $0 }.min() : nil }
            return value
        }
        return (result, inner)
    }

    static func note(_ seconds: TimeInterval) {
        guard active.load(ordering: .relaxed) > 0 else { return }
        let next = secondsToNextChange(seconds)
        earliest.withLock { value in value = min(value ?? next, next) }
    }

    /// Seconds until `shortAge` of an age now `seconds` old reads differently.
    public static func secondsToNextChange(_ seconds: TimeInterval) -> TimeInterval {
        let s = max(0, seconds)
        let unit: TimeInterval = s < 60 ? 1 : s < 3600 ? 60 : s < 86_400 ? 3600 : 86_400
        return (s / unit).rounded(.down) * unit + unit - s
    }
}
