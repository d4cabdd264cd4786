import Foundation
import Synchronization

/// A clock a test moves by hand: what waits on it (a backoff, a timeout, the next background
/// read) happens when the test says, never after a real wait.
public final class TestClock: Sendable {
    private let now: Mutex<Date>

    public init(_ start: Date = Date()) { now = Mutex(start) }

    public func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }

    public var read: Date { now.withLock { $0 } }
}
