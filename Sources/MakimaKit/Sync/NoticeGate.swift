import Foundation
import Synchronization

/// Says a recurring problem once, then again only when it changes: a different message, or
/// the same one after the problem had been gone for `quietAfter` (writes that kept working
/// that long). A full disk fails cache writes by the thousand, and on a nearly full disk some
/// writes still pass between the failures; the user needs to hear it once, not per write.
public final class NoticeGate: Sendable {
    private struct State {
        var said: String?
        var lastFailure = Date.distantPast
    }
    private let state = Mutex(State())
    private let quietAfter: TimeInterval
    private let now: @Sendable () -> Date
    private let post: @Sendable (String) -> Void

    public init(
        quietAfter: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() },
        post: @escaping @Sendable (String) -> Void
    ) {
        self.quietAfter = quietAfter
        self.now = now
        self.post = post
    }

    /// The operation failed with `message`.
    public func failed(_ message: String) {
        let t = now()
        let say = state.withLock { s -> Bool in
            s.lastFailure = t
            if s.said == message { return false }
            s.said = message
            return true
        }
        if say { post(message) }
    }

    /// The operation worked; after `quietAfter` without a failure the problem counts as over.
    public func succeeded() {
        let t = now()
        state.withLock { s in
            if s.said != nil && t.timeIntervalSince(s.lastFailure) >= quietAfter { s.said = nil }
        }
    }
}
