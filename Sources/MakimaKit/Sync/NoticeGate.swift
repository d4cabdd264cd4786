import Synchronization

/// Says a recurring problem once, then again only when it changes: a different message, or
/// the problem gone (then `recovered` is said once). A full disk fails every cache write; the
/// user needs to hear it once, not once per batch of events.
public final class NoticeGate: Sendable {
    private let current = Mutex<String?>(nil)
    private let recovered: String
    private let post: @Sendable (String) -> Void

    public init(recovered: String, post: @escaping @Sendable (String) -> Void) {
        self.recovered = recovered
        self.post = post
    }

    /// The operation failed with `message`.
    public func failed(_ message: String) {
        let changed = current.withLock { now -> Bool in
            if now == message { return false }
            now = message
            return true
        }
        if changed { post(message) }
    }

    /// The operation worked.
    public func succeeded() {
        let wasFailing = current.withLock { now -> Bool in
            defer { now = nil }
            return now != nil
        }
        if wasFailing { post(recovered) }
    }
}
