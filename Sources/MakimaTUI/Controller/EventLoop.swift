import CNcursesShim
import Glibc
import MakimaKit
import Observation
import Synchronization

/// The UI thread's loop: `poll()` over the terminal's input and the wake pipe (signals and the
/// `UIBus` write to it), a timeout set by the earliest timer, and a redraw only when something
/// changed, at most 30 frames a second (10 for changes no input asked for, `dataFrameInterval`).
/// An idle dashboard wakes once a minute for its clock.
///
/// What changed is known by observation: each frame is rendered inside
/// `withObservationTracking`, so a later change to anything it read (the chrome store, and
/// through the pane bindings the stores the models read) asks for the next frame. By hand
/// only the operator's own input (a key, a click, a paste that changed the panes), the
/// clock's ages, a resize and Ctrl-L do.
///
/// Each turn is `step(now:)` (timers, bus jobs, queued input, a frame if due) around one
/// `poll()`; tests call `step` themselves on a `MemoryTerminal` with their own clock.
@MainActor
package final class EventLoop {
    var app: AppState
    let terminal: any DashboardTerminal
    let wake: WakePipe
    /// Monotonic seconds: the one clock deadlines are measured on (tests pass their own).
    let clock: @MainActor () -> Double
    let bus: UIBus
    var timers = TimerList()
    /// A frame is wanted: the input changed the screen, an age or the terminal needs one.
    private var needsFrame = true
    /// Set by observation when something the last frame read changed.
    private let frameStale = StaleFlag()
    var dirty: Bool { needsFrame || frameStale.isSet }
    private var lastFrameAt = -Double.infinity
    private var jobPace = JobPace()
    package static let frameInterval = 1.0 / 30
    /// Frames no input asked for (the stores changed: streamed output, a list read) come at
    /// most 10 a second: a stream of pieces changes the screen with every one, and a third of
    /// the frames cost a third of the drawing (output still reads as live at 10); what a key
    /// changes is drawn at the full rate.
    package static let dataFrameInterval = 1.0 / 10
    /// An input (a key, a click, a paste, a resize) changed what is shown since the last frame.
    private var inputAsked = true
    private var dueInterval: Double { inputAsked ? Self.frameInterval : Self.dataFrameInterval }
    private var exitCode: Int32?
    var pill = PillCountdown()
    private var chrome: ChromeStore { app.chrome }
    /// Receives what keys asked of the data layer (`DashboardSession.onRequest`).
    var requestHandler: (@MainActor (DashboardRequest) -> Void)?
    /// Runs just before a frame is drawn (the controller rebuilds dirty panes there).
    var beforeDraw: (@MainActor () -> Void)?
    /// Runs when a relative age on screen would read differently (`AgeClock`): the controller
    /// marks what is shown for a rebuild. The frame follows.
    var onAgesDue: (@MainActor () -> Void)?
    /// When the "ages" timer fires (nil: no age on screen waits to change).
    private var agesDue: Double?
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
    }

    func setNeedsDisplay() { needsFrame = true }

    /// Runs `action` once the first frame is on the terminal: at once if it already is.
    func afterFirstFrame(_ action: @escaping @MainActor () -> Void) {
        if frames > 0 { action() } else { firstFrameActions.append(action) }
    }

    func requestExit(_ code: Int32) { exitCode = code }

    func run() -> Int32 {
        tickClock()
        while exitCode == nil {
            var now = clock()
            for action in timers.takeDue(now: now) { action() }
            if app.tick(now: now) { needsFrame = true }
            if app.quitRequested { break }
            drawIfDue(now: now)
            now = clock()
            var fds = [
                pollfd(fd: terminal.inputFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, pollTimeout(now: now))
            wakeups += 1
            if ready < 0 && errno != EINTR {
                exitCode = 1
                break
            }
            handleSignals()
            if fds[1].revents & Int16(POLLIN) != 0 { wake.drain() }
            // A job's change to what the last frame read asks for the next one (observation):
            // a store change no pane on screen reads draws nothing.
            if jobPace.isDue(now: clock()) && bus.runPending() > 0 { jobPace.ran(at: clock()) }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && fds[0].revents & Int16(POLLIN) == 0 {
                exitCode = 1  // the terminal went away
                break
            }
            // A sequence or paste cut short is given up at its deadline even with no more input.
            let inputDue = terminal.inputDeadline.map { $0 <= clock() } ?? false
            if fds[0].revents & Int16(POLLIN) != 0 || inputDue {
                readInput()
                deliverRequests()
            }
            if app.quitRequested { break }
        }
        return exitCode ?? 0
    }

    /// One turn without `poll()`: due timers, posted jobs, queued input, then a frame if one is
    /// due. Returns true when a frame was drawn.
    @discardableResult
    func step(now: Double) -> Bool {
        for action in timers.takeDue(now: now) { action() }
        if app.tick(now: now) { needsFrame = true }
        bus.runPending()
        readInput()
        deliverRequests()
        return drawIfDue(now: now)
    }

    @discardableResult
    private func drawIfDue(now: Double) -> Bool {
        guard dirty && now - lastFrameAt >= dueInterval else { return false }
        draw()
        lastFrameAt = now
        return true
    }

    /// Milliseconds until the next thing to do, or -1 to sleep until input.
    private func pollTimeout(now: Double) -> Int32 {
        var deadline = timers.nextDeadline
        if let d = app.nextDeadline { deadline = min(deadline ?? d, d) }
        if let d = terminal.inputDeadline { deadline = min(deadline ?? d, d) }
        if let d = jobPace.deadline(pending: bus.pendingCount > 0) { deadline = min(deadline ?? d, d) }
        if dirty { deadline = min(deadline ?? .infinity, lastFrameAt + dueInterval) }
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

    /// Renders the screen with observation armed: the first change to anything it read marks
    /// the frame stale (from the thread that changed it, the UI thread: the chrome and the
    /// stores are the UI thread's), and the loop draws the next one.
    private func renderObserved(_ size: (width: Int, height: Int)) -> CellBuffer {
        frameStale.clear()
        let stale = frameStale
        return withObservationTracking {
            app.render(width: size.width, height: size.height)
        } onChange: {
            stale.set()
        }
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

    // MARK: Clocks and connection pill

    /// The controller's rebuild of dirty panes, inside the age clock: each age a model formats
    /// says when its text changes, and the earliest sets the one timer that redraws for it.
    private func rebuildShown() {
        let (_, agesChange) = AgeClock.tracking { beforeDraw?() }
        // A rebuilt pane formatted all its ages: its deadline replaces the one waiting.
        if let agesChange { scheduleAges(at: clock() + agesChange + Self.agesSlack, replacing: true) }
    }

    /// A little past the instant an age changes, so the rebuild reads the new text.
    static let agesSlack = 0.01

    /// Keeps the earlier of the waiting deadline and `deadline` (unless `replacing`): a frame
    /// that did not rebuild a pane (a toast came) still has that pane's ages on screen.
    private func scheduleAges(at deadline: Double, replacing: Bool = false) {
        if !replacing, let due = agesDue, due <= deadline, due > clock() { return }
        agesDue = deadline
        timers.schedule("ages", at: deadline) { [unowned self] in
            self.agesDue = nil
            self.onAgesDue?()
            self.needsFrame = true
        }
    }
}
