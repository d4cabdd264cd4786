import CNcursesShim
import Glibc
import MakimaKit
import Observation

/// The UI thread's loop. Each turn (`step(now:)`) does, in order: the timers that are due,
/// the input read (each key handed to the pane or controller that owns it, what it asked of
/// the data layer done before the next key), the jobs other threads posted (`UIBus`) and the
/// engine's outbox drained into the stores (`drain`), then, if anything on screen changed,
/// the models of what is shown rebuilt and one frame drawn: at most 30 frames a second, 10 for
/// changes no input asked for (`dataFrameInterval`), none while idle. `run()` is that turn
/// around one `poll()` over the terminal's input and the wake pipe (signals, the bus and the
/// outbox write to it), its timeout set by the earliest timer; tests call `step` themselves on
/// a `MemoryTerminal` with their own clock, and one step shows what a change did.
///
/// What changed is known one way, by observation (`PaneBindings`): each pane's model and the
/// frame itself are built inside `withObservationTracking`, so a change to anything a build
/// read marks its slot dirty where the change is made, and a dirty slot on screen asks for
/// the frame. The pane stack is the UI's own state: a change to it asks for the frame where
/// it is made (`DashboardSession.updatePanes`, a key a pane used). By hand only a resize,
/// Ctrl-L and the clocks (the masthead's minute, the ages on screen) do.
@MainActor
package final class EventLoop {
    var app: AppState
    let terminal: any DashboardTerminal
    let wake: WakePipe
    /// Monotonic seconds: the one clock deadlines are measured on (tests pass their own).
    let clock: @MainActor () -> Double
    let bus: UIBus
    var timers = TimerList()
    /// What each build read, and so what a change makes dirty (the one change tracker).
    let bindings = PaneBindings()
    /// A frame is wanted: something on screen changed, an age or the terminal needs one.
    var needsFrame = true
    private var lastFrameAt = -Double.infinity
    private var jobPace = JobPace()
    package static let frameInterval = 1.0 / 30
    /// Frames no input asked for (the stores changed: streamed output, a list read) come at
    /// most 10 a second: a stream of pieces changes the screen with every one, and output
    /// still reads as live at 10; what a key changes is drawn at the full rate.
    package static let dataFrameInterval = 1.0 / 10
    /// An input (a key, a click, a paste, a resize) changed what is shown since the last frame.
    private var inputAsked = true
    private var dueInterval: Double { inputAsked ? Self.frameInterval : Self.dataFrameInterval }
    private var exitCode: Int32?
    var pill = PillCountdown()
    private var chrome: ChromeStore { app.chrome }
    /// Receives what keys asked of the data layer (`DashboardSession.onRequest`).
    var requestHandler: (@MainActor (DashboardRequest) -> Void)?
    /// Drains the engine's outbox into the stores (the controller's); true when there was
    /// anything.
    var drain: (@MainActor () -> Bool)?
    /// Tells whether the engine's outbox holds updates (the poll's timeout waits for their
    /// pace, not forever).
    var drainPending: (@MainActor () -> Bool)?
    /// Runs just before a frame is drawn (the controller rebuilds dirty panes there).
    var beforeDraw: (@MainActor () -> Void)?
    /// Runs when a relative age on screen would read differently (`AgeClock`): the controller
    /// marks what is shown for a rebuild. The frame follows.
    var onAgesDue: (@MainActor () -> Void)?
    /// When the "ages" timer fires (nil: no age on screen waits to change).
    var agesDue: Double?
    /// Run once, in order, right after the first frame has been flushed (`afterFirstFrame`).
    private var firstFrameActions: [@MainActor () -> Void] = []
    /// Frames drawn and loop turns, for diagnostics.
    private(set) var frames = 0
    /// What the terminal last said of its focus (mode 1004); nil until it says (a terminal or
    /// a tmux without focus events never does).
    private(set) var terminalFocused: Bool?
    private var titleShown: String?
    private(set) var wakeups = 0

    init(
        app: AppState, terminal: any DashboardTerminal, wake: WakePipe, bus: UIBus,
        clock: @escaping @MainActor () -> Double = Clocks.monotonic
    ) {
        self.app = app
        self.terminal = terminal
        self.wake = wake
        self.bus = bus
        self.clock = clock
        bindings.onDirty = { [weak self] slot in
            guard let self, slot.isShown(under: self.app.stack.top) else { return }
            self.needsFrame = true
        }
    }

    func setNeedsDisplay() { needsFrame = true }

    /// Runs `action` once the first frame is on the terminal: at once if it already is.
    func afterFirstFrame(_ action: @escaping @MainActor () -> Void) {
        if frames > 0 { action() } else { firstFrameActions.append(action) }
    }

    func requestExit(_ code: Int32) { exitCode = code }

    func run() -> Int32 {
        tickClock()
        // The first turn draws the first frame before any wait.
        var inputReady = false
        while exitCode == nil {
            step(now: clock(), readsInput: inputReady)
            if app.quitRequested || exitCode != nil { break }
            guard let ready = waitForWork() else { break }
            inputReady = ready
        }
        return exitCode ?? 0
    }

    /// Sleeps in `poll()` until input, a wake-up or the next deadline; handles signals. Returns
    /// whether input is to be read (some came, or a sequence cut short is due), or nil when the
    /// terminal went away.
    private func waitForWork() -> Bool? {
        var fds = [
            pollfd(fd: terminal.inputFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, 2, pollTimeout(now: clock()))
        wakeups += 1
        if ready < 0 && errno != EINTR {
            exitCode = 1
            return nil
        }
        handleSignals()
        if fds[1].revents & Int16(POLLIN) != 0 { wake.drain() }
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && fds[0].revents & Int16(POLLIN) == 0 {
            exitCode = 1  // the terminal went away
            return nil
        }
        // A sequence or paste cut short is given up at its deadline even with no more input.
        let inputDue = terminal.inputDeadline.map { $0 <= clock() } ?? false
        return fds[0].revents & Int16(POLLIN) != 0 || inputDue
    }

    /// One turn: due timers, queued input (`readsInput`), posted jobs and the engine's outbox,
    /// then a frame if one is due. Returns true when a frame was drawn.
    @discardableResult
    func step(now: Double, readsInput: Bool = true) -> Bool {
        for action in timers.takeDue(now: now) { action() }
        if app.tick(now: now) { needsFrame = true }
        if readsInput {
            readInput()
            deliverRequests()
        }
        if app.quitRequested || exitCode != nil { return false }
        // Paced: what arrives meanwhile waits and one drain takes it all (`JobPace`). A change
        // these make to what is on screen asks for the frame (observation); one to a store no
        // pane on screen reads draws nothing.
        if jobPace.isDue(now: now) {
            let ran = bus.runPending() > 0
            if drain?() == true || ran { jobPace.ran(at: now) }
            deliverRequests()
        }
        return drawIfDue(now: now)
    }

    private var jobsPending: Bool { bus.pendingCount > 0 || drainPending?() == true }

    @discardableResult
    private func drawIfDue(now: Double) -> Bool {
        // A little slack: a test clock stepped by the interval lands on it, give or take a
        // rounding.
        guard needsFrame && now - lastFrameAt >= dueInterval - 1e-9 else { return false }
        draw()
        lastFrameAt = now
        return true
    }

    /// Milliseconds until the next thing to do, or -1 to sleep until input.
    private func pollTimeout(now: Double) -> Int32 {
        var deadline = timers.nextDeadline
        if let d = app.nextDeadline { deadline = min(deadline ?? d, d) }
        if let d = terminal.inputDeadline { deadline = min(deadline ?? d, d) }
        if let d = jobPace.deadline(pending: jobsPending) { deadline = min(deadline ?? d, d) }
        if needsFrame { deadline = min(deadline ?? .infinity, lastFrameAt + dueInterval) }
        guard let deadline else { return -1 }
        let ms = ((deadline - now) * 1000).rounded(.up)
        return Int32(max(0, min(ms, 3_600_000)))
    }

    private func draw() {
        rebuildShown()
        if frames == 0 { StartupReport.mark("models") }
        if app.fullRedrawRequested {
            app.fullRedrawRequested = false
            terminal.invalidate()
        }
        let size = terminal.size
        // Rendered inside the age clock too: some panes measure ages as they draw.
        let (frame, agesChange) = AgeClock.tracking { renderObserved(size) }
        terminal.flush(frame)
        let title = TerminalTitle.text(app.masthead)
        if title != titleShown {
            titleShown = title
            terminal.setTitle(title)
        }
        if let agesChange { scheduleAges(at: clock() + agesChange + Self.agesSlack) }
        needsFrame = false
        inputAsked = false
        frames += 1
        if frames == 1 {
            let actions = firstFrameActions
            firstFrameActions = []
            for action in actions { action() }
        }
    }

    /// Renders the screen with observation armed (`.screen`): the first change to anything it
    /// read marks it dirty, and the loop draws the next frame.
    private func renderObserved(_ size: (width: Int, height: Int)) -> CellBuffer {
        bindings.build(.screen) { app.render(width: size.width, height: size.height) }
    }

    /// Keys read together (fast typing, a paste, `tmux send-keys`) are handled one at a time,
    /// each by the pane on top when its turn comes: what a key asked of the controller (open a
    /// row, show a pane) is done before the next key, and a pane that came on top is built
    /// from the stores first, so `2 j` moves down the Contracts list, not Home's.
    ///
    /// Everything waiting is read first, so a burst (more than one character in a read: a
    /// paste, with or without its markers, a mouse report, keys a program typed) is known
    /// before its keys are handled; none of its keys, nor one right behind it, can confirm a
    /// destructive or final action (`BurstGuard`, `AppState.keyIsDeliberate`).
    private func readInput() {
        let charactersBefore = terminal.charactersRead
        var batch: [TerminalInput] = []
        while batch.count < Self.inputsPerTurn, let input = terminal.read() { batch.append(input) }
        let inputs = batch.reduce(0) { $1 == .resize ? $0 : $0 + 1 }
        if !batch.isEmpty { inputAsked = true }
        let deliberate = burst.deliberate(
            characters: terminal.charactersRead &- charactersBefore, inputs: inputs, now: clock())
        for input in batch {
            let before = app.stack.ids
            switch input {
            case .resize:
                // curses already knows the new size (resizeterm queues KEY_RESIZE itself):
                // resizing again here would queue another one, forever.
                terminal.invalidate()
                needsFrame = true
                continue
            case .key(let key):
                app.keyIsDeliberate = deliberate
                if app.handle(key, now: clock()) { needsFrame = true }
                app.keyIsDeliberate = true
            case .mouse(let event):
                if app.handle(event, now: clock()) { needsFrame = true }
            case .paste(let text):
                if app.paste(text) { needsFrame = true }
            case .focus(let focused):
                terminalFocused = focused
                continue
            }
            if app.fullRedrawRequested { needsFrame = true }
            if app.quitRequested { return }
            deliverRequests()
            if app.stack.ids != before { rebuildShown() }
        }
    }

    /// Inputs handled per turn at most (a flood is taken a turn at a time, frames between).
    static let inputsPerTurn = 4_096
    private var burst = BurstGuard()

    private func deliverRequests() {
        for sequence in app.takeTerminalWrites() { terminal.writeControl(Array(sequence.utf8)) }
        let requests = app.takeRequests()
        guard let handler = requestHandler else { return }
        for r in requests { handler(r) }
    }

    private func handleSignals() {
        let flags = SignalRelay.take()
        if flags.contains(.interrupt) { exitCode = 0 }
        if flags.contains(.terminate) { exitCode = 128 + SIGTERM }
        if flags.contains(.hangUp) { exitCode = 128 + SIGHUP }
        if flags.contains(.resize) { resize() }
    }

    private func resize() {
        terminal.syncSize()
        terminal.invalidate()
        needsFrame = true
        inputAsked = true
    }
}
