/// Decides whether the English glosses are shown, from presses of the gloss key alone (a
/// terminal reports no key releases). A tap toggles the glosses; holding the key shows them
/// until it is let go, which we see as the end of the key's auto-repeat stream.
///
/// A held key sends one press, then after the keyboard's repeat delay (typically 200–660 ms; up to `repeatDelayLimit`)
/// a press every ~30–50 ms. So:
/// - a press long after the previous one is a tap and toggles at once;
/// - a press soon after a tap (within `repeatDelayLimit`) could be a second tap or the first
///   auto-repeat: it waits; if no press follows within `releaseTimeout` it was a tap and
///   toggles then;
/// - a press within `repeatWindow` of the previous one is auto-repeat: the glosses show while
///   the stream lasts, the tap that began it is undone, and once no press has come for
///   `releaseTimeout` the hold ends and the glosses return to their state before the hold.
///
/// Time is injected (seconds on a monotonic clock), so tests need no clock.
public struct GlossReveal: Equatable, Sendable {
    public var repeatWindow: Double = 0.060
    public var releaseTimeout: Double = 0.150
    public var repeatDelayLimit: Double = 0.800

    /// State set by taps.
    public private(set) var pinned = false
    /// True while an auto-repeat stream is running.
    public private(set) var holding = false
    private var lastPress: Double?
    private var pendingTap = false
    private var pinnedBeforeLastTap = false
    private var lastTapAt: Double?

    public init() {}

    public var revealed: Bool { holding || pinned }

    /// The gloss key was pressed at `now`.
    public mutating func press(at now: Double) {
        settle(at: now)
        let gap = lastPress.map { now - $0 } ?? .infinity
        lastPress = now
        if holding {
            return
        }
        if gap <= repeatWindow {
            // Auto-repeat: a hold. The press that started it was not a tap after all.
            holding = true
            pendingTap = false
            if let tap = lastTapAt, now - tap <= repeatDelayLimit + repeatWindow {
                pinned = pinnedBeforeLastTap
                lastTapAt = nil
            }
            return
        }
        if let tap = lastTapAt, now - tap <= repeatDelayLimit {
            // A second tap, or the first repeat of a hold: the next press (or its absence) tells.
            pendingTap = true
            return
        }
        tap(at: now)
    }

    /// Lets time pass: ends a hold or resolves a waiting tap whose deadline is over.
    public mutating func settle(at now: Double) {
        guard let last = lastPress, now - last > releaseTimeout else { return }
        if holding {
            holding = false
        } else if pendingTap {
            pendingTap = false
            tap(at: last)
        }
    }

    /// When `settle` next has something to do (for the event loop's timer), or nil.
    public var nextDeadline: Double? {
        guard let last = lastPress, holding || pendingTap else { return nil }
        return last + releaseTimeout + 0.001
    }

    private mutating func tap(at time: Double) {
        pinnedBeforeLastTap = pinned
        pinned.toggle()
        lastTapAt = time
    }
}
