/// Tells typed keys from keys that arrived together. A person's keys come one per read; a
/// paste into a terminal without bracketed paste (or one whose markers were lost) comes as
/// many keys in one read, possibly split over a few reads in quick succession. Destructive
/// actions (sign-out, key rotation, the quit prompt's `y`) need a deliberate key.
struct BurstGuard {
    /// A read with at least this many keys is a burst.
    static let burstKeys = 3
    /// Keys read this soon (seconds) after a burst are the rest of it.
    static let settle = 0.05
    private var lastBurstAt = -Double.infinity

    /// Whether the keys of a read of `keysInRead` keys at `now` are deliberate: alone in their
    /// read, and not right behind a burst.
    mutating func deliberate(keysInRead: Int, now: Double) -> Bool {
        if keysInRead >= Self.burstKeys || now - lastBurstAt < Self.settle {
            if keysInRead > 0 { lastBurstAt = now }
            return false
        }
        return keysInRead <= 1
    }
}
