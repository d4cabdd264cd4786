import CNcursesShim
import Glibc

/// The curses session on the controlling terminal: start-up, key input, resize, shutdown.
/// UI thread only (the crash path's `endwin` excepted).
@MainActor
package final class NcursesScreen {
    private(set) var isActive = false
    let hasColors: Bool
    /// False for a screen on `/dev/null` (benchmarks, tests): the input modes are the real
    /// terminal's, and such a screen must not write them to stdout.
    private let ownsTerminal: Bool
    private var decoder = InputDecoder()
    /// Characters one `read()` takes at most, so a flood cannot hold the UI thread.
    static let readBudget = 262_144

    /// Starts curses on stdin/stdout. The locale must be set first (`TerminalLocale`).
    /// Bracketed paste is always asked for; mouse reporting unless `mouse` is false.
    init(termName: String? = nil, mouse: Bool = true) throws(TerminalError) {
        // A terminal that cannot place the cursor (TERM=dumb, an entry without `cup`) would
        // get a blank or garbled screen: said before curses starts.
        let name = termName ?? getenv("TERM").map { String(cString: $0) } ?? ""
        if mk_terminfo_can_address(name) == 0 { throw .noCursorAddressing(name) }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw .cannotStart("stdin and stdout must be a terminal")
        }
        guard let out = fdopen(STDOUT_FILENO, "w"), let inp = fdopen(STDIN_FILENO, "r") else {
            throw .system("fdopen", errno)
        }
        set_escdelay(25)
        QuitWatchdog.saveTerminalModes(fd: STDIN_FILENO)
        guard newterm(termName, out, inp) != nil else {
            let name = termName ?? getenv("TERM").map { String(cString: $0) } ?? ""
            throw .cannotStart("ncurses does not know TERM=\(name)")
        }
        QuitWatchdog.saveResetSequence()
        ownsTerminal = true
        isActive = true
        SignalRelay.cursesActive.store(true, ordering: .sequentiallyConsistent)
        hasColors = Self.configure()
        // The mouse reports and the paste markers are read by `InputDecoder`, not by ncurses'
        // mouse driver: it must not take `kmous` for itself.
        keyok(KEY_MOUSE, false)
        TerminalModes.write(TerminalModes.pasteOn + (mouse ? TerminalModes.mouseOn : []))
    }

    /// A screen writing to `/dev/null` with the given terminfo entry and size, for benchmarks.
    package init(nullDeviceTerm termName: String, width: Int, height: Int) throws(TerminalError) {
        guard let out = fopen("/dev/null", "w"), let inp = fopen("/dev/null", "r") else {
            throw .system("fopen /dev/null", errno)
        }
        guard newterm(termName, out, inp) != nil else { throw .cannotStart("no terminfo for \(termName)") }
        ownsTerminal = false
        isActive = true
        hasColors = Self.configure()
        resizeterm(Int32(height), Int32(width))
    }

    private static func configure() -> Bool {
        cbreak()
        noecho()
        nonl()
        intrflush(mk_stdscr(), false)
        keypad(mk_stdscr(), true)
        nodelay(mk_stdscr(), true)
        curs_set(0)
        guard has_colors() else { return false }
        start_color()
        use_default_colors()
        return true
    }

    var size: (width: Int, height: Int) { (Int(mk_cols()), Int(mk_lines())) }

    /// The next pending input, or nil when there is none (never blocks: `nodelay`).
    ///
    /// A started sequence or paste is given up at its deadline only when nothing is waiting:
    /// characters that waited in the terminal while the loop was busy are still its rest.
    /// Each character is stamped when it is taken (a read of a long sequence can last seconds:
    /// a time taken once before it would make its last character look old, and the sequence
    /// be given up at the next pause and its rest typed as keys).
    func read() -> TerminalInput? {
        for _ in 0..<Self.readBudget {
            if let input = decoder.next() { return input }
            var ch: wint_t = 0
            var status = ERR
            // `wget_wch` refreshes a touched window: a write, so it goes through the gate.
            TerminalGate.terminal.hold { status = wget_wch(mk_stdscr(), &ch) }
            if status == ERR {
                decoder.endOfInput()
                decoder.expire(now: Clocks.monotonic())
                return decoder.next()
            }
            decoder.feed(status: status, code: UInt32(ch), now: Clocks.monotonic())
        }
        return decoder.next()
    }

    /// Characters and key codes taken from the terminal so far (`InputDecoder.charactersTaken`).
    var charactersRead: Int { decoder.charactersTaken }

    /// When a started sequence or paste is given up if nothing more arrives (`InputDecoder`).
    var inputDeadline: Double? { decoder.deadline }

    /// Turns mouse reporting on or off (Settings), between frames.
    func setMouseReporting(_ on: Bool) {
        guard isActive, ownsTerminal else { return }
        TerminalGate.terminal.hold { TerminalModes.write(on ? TerminalModes.mouseOn : TerminalModes.mouseOff) }
    }

    /// Asks the kernel for the window size and tells curses (after SIGWINCH).
    func syncSizeWithTerminal() {
        var ws = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 {
            resizeterm(Int32(ws.ws_row), Int32(ws.ws_col))
        }
    }

    func bell() { TerminalGate.terminal.hold { beep() } }

    /// Restores the terminal: cursor, echo, the normal screen. Safe to call twice.
    package func end() {
        guard isActive else { return }
        isActive = false
        SignalRelay.cursesActive.store(false, ordering: .sequentiallyConsistent)
        if ownsTerminal { TerminalModes.write(TerminalModes.allOff) }
        curs_set(1)
        endwin()
    }
}
