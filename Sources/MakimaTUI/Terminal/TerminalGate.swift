import Glibc
import Synchronization

/// Who may touch the terminal: the UI thread, one write or read at a time, until the crash
/// path closes the gate for good.
///
/// A crash signal sent with `kill` lands on any thread. Its handler restores the terminal
/// (`endwin`) there, but ncurses resumes a program that refreshes after `endwin`: one
/// `doupdate` (or `wget_wch`, which refreshes a touched window) on the UI thread a moment
/// later put the alternate screen and raw mode back, and the crash report was printed into
/// them, in a staircase, never seen in the shell. So the UI thread holds the gate for each
/// frame, control write and read, and `close` waits for the one in progress (bounded, since
/// a write to a terminal that stopped reading can last for ever) before the restore; after
/// it, the UI thread's writes are skipped.
package final class TerminalGate: Sendable {
    /// The gate the dashboard's terminal goes through.
    package static let terminal = TerminalGate(patience: 1_000)

    private static let open: UInt8 = 0
    private static let held: UInt8 = 1
    private static let closed: UInt8 = 2

    private let state = Atomic<UInt8>(TerminalGate.open)
    /// The thread `close` need not wait for: a crash on it cannot be in the middle of a write
    /// it will finish.
    private let owner = Atomic<UInt>(0)
    /// How many milliseconds `close` waits for a write in progress.
    private let patience: Int

    package init(patience milliseconds: Int) { patience = milliseconds }

    /// Makes the calling thread the one that writes (`close` on it does not wait for itself).
    package func adoptCurrentThread() { owner.store(UInt(pthread_self()), ordering: .sequentiallyConsistent) }

    /// Runs `body` holding the gate; false, without running it, once the gate is closed.
    /// Not reentrant: `body` must not call `hold` again.
    @discardableResult
    package func hold(_ body: () -> Void) -> Bool {
        while true {
            let (taken, found) = state.compareExchange(
                expected: Self.open, desired: Self.held, ordering: .sequentiallyConsistent)
            if taken { break }
            if found == Self.closed { return false }
            sched_yield()  // another thread holds it: only benchmarks and tests share the gate
        }
        body()
        _ = state.compareExchange(expected: Self.held, desired: Self.open, ordering: .sequentiallyConsistent)
        return true
    }

    /// Closes the gate for good, once no write is in progress, or after `patience` ms of
    /// waiting for one (async-signal-safe: atomics and `nanosleep` only).
    package func close() {
        if pthread_equal(pthread_self(), pthread_t(owner.load(ordering: .sequentiallyConsistent))) != 0 {
            state.store(Self.closed, ordering: .sequentiallyConsistent)
            return
        }
        for _ in 0..<patience {
            let (taken, found) = state.compareExchange(
                expected: Self.open, desired: Self.closed, ordering: .sequentiallyConsistent)
            if taken || found == Self.closed { return }
            var millisecond = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&millisecond, nil)
        }
        state.store(Self.closed, ordering: .sequentiallyConsistent)
    }

    /// True once `close` ran.
    package var isClosed: Bool { state.load(ordering: .sequentiallyConsistent) == Self.closed }
}
