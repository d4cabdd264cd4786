import MakimaKit

/// The clocks the loop keeps itself: the masthead's minute, the connection pill's
/// countdown and the ages on screen, each one timer on the loop.
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

    /// The controller's rebuild of dirty panes, inside the age clock: each age a model formats
    /// says when its text changes, and the earliest sets the one timer that redraws for it.
    func rebuildShown() {
        let (_, agesChange) = AgeClock.tracking { beforeDraw?() }
        // A rebuilt pane formatted all its ages: its deadline replaces the one waiting.
        if let agesChange { scheduleAges(at: clock() + agesChange + Self.agesSlack, replacing: true) }
    }

    /// A little past the instant an age changes, so the rebuild reads the new text.
    static let agesSlack = 0.01

    /// Keeps the earlier of the waiting deadline and `deadline` (unless `replacing`): a frame
    /// that did not rebuild a pane (a toast came) still has that pane's ages on screen.
    func scheduleAges(at deadline: Double, replacing: Bool = false) {
        if !replacing, let due = agesDue, due <= deadline, due > clock() { return }
        agesDue = deadline
        timers.schedule("ages", at: deadline) { [unowned self] in
            self.agesDue = nil
            self.onAgesDue?()
            self.needsFrame = true
        }
    }
}
