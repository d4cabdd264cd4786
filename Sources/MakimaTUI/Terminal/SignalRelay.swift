import CNcursesShim
import Glibc
import Synchronization

/// Signals, turned into flags the UI thread reads after being woken through the wake pipe,
/// and a last-chance terminal restore on crashes.
///
/// - SIGINT, SIGTERM, SIGHUP: ask the event loop to quit (it restores the terminal itself);
///   if it has not within a second, `QuitWatchdog` restores the terminal and ends the process.
/// - SIGWINCH: ask the event loop to resize. Installed before curses starts, so ncurses
///   does not install its own handler and the resize arrives through our poll loop.
/// - SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP: close `TerminalGate` (on whichever
///   thread the signal landed, the UI thread then writes no more), restore the terminal (mouse
///   and paste modes off, `endwin`),
///   then put back the previous handler (e.g. Swift's backtracer) and re-raise; if that
///   handler returns, re-raise once more with the default action.
public enum SignalRelay {
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let interrupt = Flags(rawValue: 1 << 0)
        public static let terminate = Flags(rawValue: 1 << 1)
        public static let hangUp = Flags(rawValue: 1 << 2)
        public static let resize = Flags(rawValue: 1 << 3)
    }

    static let pending = Atomic<UInt32>(0)
    static let wakeFD = Atomic<Int32>(-1)
    /// True between curses start and `endwin`: the crash path restores only then.
    static let cursesActive = Atomic<Bool>(false)

    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    // The handlers that were there before ours, indexed by signal number; written once at
    // install time on the UI thread, read only by the crash handler.
    nonisolated(unsafe) static var previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

    /// Installs every handler. `wakeFD` is the write end of the event loop's wake pipe.
    public static func install(wakeFD fd: Int32) {
        wakeFD.store(fd, ordering: .sequentiallyConsistent)
        TerminalGate.terminal.adoptCurrentThread()
        QuitWatchdog.start()
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { setHandler(sig, flagHandler, flags: 0) }
        for sig in fatalSignals {
            var old = sigaction()
            sigaction(sig, nil, &old)
            previous[Int(sig)] = old
            setHandler(sig, fatalHandler, flags: Int32(bitPattern: UInt32(SA_RESETHAND)) | Int32(SA_NODEFER))
        }
        signal(SIGPIPE, SIG_IGN)
        _ = TerminalModes.allOff  // made now, not first in a signal handler
        atexit { SignalRelay.restoreTerminalIfActive() }
    }

    /// Takes and clears the signals seen since the last call.
    public static func take() -> Flags {
        Flags(rawValue: pending.exchange(0, ordering: .sequentiallyConsistent))
    }

    static func restoreTerminalIfActive() {
        // First the UI thread's writes stop (`TerminalGate`): one after `endwin` would take
        // the terminal back.
        TerminalGate.terminal.close()
        if cursesActive.exchange(false, ordering: .sequentiallyConsistent) {
            TerminalModes.write(TerminalModes.allOff)
            endwin()
        }
    }

    private static func setHandler(_ sig: Int32, _ handler: @convention(c) (Int32) -> Void, flags: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        sigaction(sig, &action, nil)
    }

    private static let flagHandler: @convention(c) (Int32) -> Void = { sig in
        let flag: Flags
        switch sig {
        case SIGINT: flag = .interrupt
        case SIGTERM: flag = .terminate
        case SIGHUP: flag = .hangUp
        default: flag = .resize
        }
        SignalRelay.pending.bitwiseOr(flag.rawValue, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(SignalRelay.wakeFD.load(ordering: .sequentiallyConsistent), &byte, 1)
        if sig != SIGWINCH { QuitWatchdog.notify(sig) }
    }

    private static let fatalHandler: @convention(c) (Int32) -> Void = { sig in
        SignalRelay.restoreTerminalIfActive()
        var old = SignalRelay.previous[Int(sig)]
        sigaction(sig, &old, nil)
        raise(sig)
        // The previous handler returned (Swift's backtracer does, for a signal sent with
        // kill): die of the signal now rather than run on with a restored terminal.
        signal(sig, SIG_DFL)
        raise(sig)
    }
}
