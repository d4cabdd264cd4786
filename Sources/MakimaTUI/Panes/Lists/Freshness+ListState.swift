import Foundation
import MakimaKit

extension Freshness {
    /// How current a list is: a failed refresh keeps its data and says how old it is.
    public static func of<T>(_ state: ListState<T>, now: Date) -> Freshness {
        // The age is formatted only when it is shown: a formatted age asks for a frame when
        // its text changes (`AgeClock`).
        func age() -> String? { state.age(now: now).map(shortAge) }
        if let error = state.lastError { return .failed(age: state.hasLoaded ? age() : nil, message: error) }
        if state.isStale { return .stale(age: age() ?? "?") }
        if state.hasLoaded { return .fresh }
        return state.isLoading ? .loading : .unknown
    }
}

/// What a pane measures the server's times against: our clock now, and the server's offset.
struct TimeBase: Sendable {
    let now: Date
    let serverClock: ClockOffset

    /// "3m ago" for a server's time (see `ago(_:now:clock:)`).
    func ago(_ serverTime: Date?) -> String { MakimaTUI.ago(serverTime, now: now, clock: serverClock) }
}

/// "3m ago" from a server's time, read on our clock through `clock` (never negative: a time
/// still ahead of ours reads "0s ago").
func ago(_ serverTime: Date?, now: Date, clock: ClockOffset) -> String {
    guard let serverTime else { return "" }
    return shortAge(max(0, now.timeIntervalSince(clock.local(serverTime)))) + " ago"
}

/// Server text on one line (cleaned at decode; newlines folded here). Text with no byte of a
/// line break (LF, VT, FF, CR; the last bytes of NEL, LS, PS) comes back as it is, without
/// splitting: a list pane folds every row's text.
func oneLine(_ text: String) -> String {
    if !text.utf8.contains(where: { (0x0A...0x0D).contains($0) || $0 == 0x85 || $0 == 0xA8 || $0 == 0xA9 }) {
        return text
    }
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
}
