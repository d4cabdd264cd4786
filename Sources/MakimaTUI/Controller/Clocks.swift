import Glibc

/// Monotonic time for deadlines, wall time for the masthead clock.
package enum Clocks {
    /// Seconds on the monotonic clock (arbitrary origin; never jumps).
    package static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Local wall time as HH:MM, and the seconds until the minute changes.
    static func wallClock() -> (text: String, secondsToNextMinute: Double) {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var t = ts.tv_sec
        var parts = tm()
        localtime_r(&t, &parts)
        let text =
            (parts.tm_hour < 10 ? "0" : "") + String(parts.tm_hour) + ":" + (parts.tm_min < 10 ? "0" : "")
            + String(parts.tm_min)
        let intoMinute = Double(parts.tm_sec) + Double(ts.tv_nsec) / 1e9
        return (text, max(0.05, 60 - intoMinute))
    }
}

/// Deadlines the event loop sleeps until (poll's timeout is the earliest). No fixed ticker:
/// with nothing scheduled the loop sleeps until input arrives.
struct TimerList {
    private var entries: [String: (deadline: Double, action: @MainActor () -> Void)] = [:]

    mutating func schedule(_ id: String, at deadline: Double, _ action: @escaping @MainActor () -> Void) {
        entries[id] = (deadline, action)
    }

    mutating func cancel(_ id: String) { entries[id] = nil }

    var nextDeadline: Double? { entries.values.map(\.deadline).min() }

    /// Removes and returns the actions due at `now`, earliest first.
    mutating func takeDue(now: Double) -> [@MainActor () -> Void] {
        let due = entries.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (id, _) in due { entries[id] = nil }
        return due.map(\.value.action)
    }

    var count: Int { entries.count }
}
