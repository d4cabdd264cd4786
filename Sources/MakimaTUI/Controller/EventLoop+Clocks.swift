import MakimaKit

/// The clocks the loop keeps itself: the masthead's minute and the connection pill's
/// countdown, each one timer on the loop.
extension EventLoop {
    /// The masthead's clock, kept in the chrome store (observed: a new minute draws a frame).
    func tickClock() {
        let clock = Clocks.wallClock()
        app.masthead.clock = clock.text
        timers.schedule("clock", at: self.clock() + clock.secondsToNextMinute) { [unowned self] in
            self.tickClock()
        }
    }

    /// Shows `state`; an offline countdown is then kept by the loop itself (one wake-up a
    /// second while it runs, writing the pill to the chrome store), so the sync engine posts
    /// only state changes.
    func setConnectionPill(_ state: ConnectionPillState) {
        pill.set(state, now: clock())
        refreshPill()
    }

    func refreshPill() {
        let now = clock()
        app.masthead.pill = pill.pill(at: now)
        if let next = pill.nextChange(after: now) {
            timers.schedule("pill", at: next) { [unowned self] in self.refreshPill() }
        } else {
            timers.cancel("pill")
        }
    }
}
