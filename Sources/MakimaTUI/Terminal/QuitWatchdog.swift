import CNcursesShim
import Glibc
import Synchronization

/// A quit signal (SIGINT, SIGTERM, SIGHUP) ends the process within a second, whatever the UI
/// thread is busy with. The signal handler only records the signal and posts a semaphore
/// (both async-signal-safe); a thread waiting on that semaphore gives the event loop `grace`
/// to quit the ordinary way, and if the process is still there, restores the terminal with
/// what is safe from another thread (the reset bytes and terminal modes saved when curses
/// started, put back with `write` and `tcsetattr`, no curses call) and ends it with `_exit`.
enum QuitWatchdog {
    /// How long the event loop gets to notice the signal and quit by itself.
    static let graceNanoseconds = 800_000_000

    /// The first quit signal received (0: none yet).
    static let received = Atomic<Int32>(0)
    private static let started = Atomic<Bool>(false)
    private static let modesSaved = Atomic<Bool>(false)
    private static let resetCount = Atomic<Int>(0)
    // Written on the UI thread before curses starts (and before the thread can read them),
    // read by the watchdog thread only after a signal.
    nonisolated(unsafe) private static let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    nonisolated(unsafe) private static let savedModes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    private static let resetCapacity = 512
    nonisolated(unsafe) private static let resetBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)

    /// Starts the waiting thread (once). Every static the signal path reads is made here, on
    /// the UI thread: Swift initialises globals lazily, which a signal handler must not do.
    static func start() {
        guard !started.exchange(true, ordering: .sequentiallyConsistent) else { return }
        sem_init(semaphore, 0, 0)
        _ = received.load(ordering: .relaxed)
        _ = modesSaved.load(ordering: .relaxed)
        _ = resetCount.load(ordering: .relaxed)
        var thread = pthread_t()
        pthread_create(&thread, nil, { _ in QuitWatchdog.waitForSignal() }, nil)
        pthread_detach(thread)
    }

    /// From the signal handler: async-signal-safe calls only.
    static func notify(_ sig: Int32) {
        _ = received.compareExchange(expected: 0, desired: sig, ordering: .sequentiallyConsistent)
        if started.load(ordering: .sequentiallyConsistent) { sem_post(semaphore) }
    }

    /// Keeps the terminal's modes as they are before curses changes them.
    static func saveTerminalModes(fd: Int32) {
        if tcgetattr(fd, savedModes) == 0 { modesSaved.store(true, ordering: .sequentiallyConsistent) }
    }

    /// Keeps the bytes that undo what the session turned on: the terminfo strings for the
    /// normal screen, a visible cursor and plain attributes, then the xterm modes a session
    /// may have enabled (mouse reporting, bracketed paste), which terminals that lack them ignore.
    static func saveResetSequence() {
        var bytes: [UInt8] = []
        for cap in ["sgr0", "cnorm", "rmcup"] {
            if let s = mk_cap_string(cap) { bytes += Array(String(cString: s).utf8) }
        }
        bytes += Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l\u{1B}[?2004l".utf8)
        bytes += Array("\u{1B}[?1004l\u{1B}[23;0t\r\n".utf8)
        let n = min(bytes.count, resetCapacity)
        for i in 0..<n { resetBytes[i] = bytes[i] }
        resetCount.store(n, ordering: .sequentiallyConsistent)
    }

    private static func waitForSignal() -> UnsafeMutableRawPointer? {
        while sem_wait(semaphore) != 0 {}  // EINTR: wait again
        var request = timespec(tv_sec: 0, tv_nsec: graceNanoseconds)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 { request = remaining }
        forceExit()
    }

    /// The event loop did not end the process in time: restore the terminal (if curses still
    /// holds it) and leave at once, with the status a death by the signal would give.
    private static func forceExit() -> Never {
        if SignalRelay.cursesActive.exchange(false, ordering: .sequentiallyConsistent) {
            // A terminal that stopped reading (its buffer full, flow control, a hung-up line)
            // is a likely reason the loop is stuck: the restore must not wait on it as well.
            _ = fcntl(STDOUT_FILENO, F_SETFL, fcntl(STDOUT_FILENO, F_GETFL) | O_NONBLOCK)
            _ = write(STDOUT_FILENO, resetBytes, resetCount.load(ordering: .sequentiallyConsistent))
            if modesSaved.load(ordering: .sequentiallyConsistent) { tcsetattr(STDIN_FILENO, TCSANOW, savedModes) }
        }
        _exit(128 + received.load(ordering: .sequentiallyConsistent))
    }
}
