import Foundation
import Synchronization

/// Every libcurl transfer running in this process, so the process can stop them before it exits.
///
/// Why: `exit` runs OpenSSL's and libcurl's destructors, and a transfer still running on another
/// thread (say one of the Home numbers' five concurrent requests, still loading certificates
/// when the first has failed) then uses freed memory and the process crashes. Transfers are run
/// on threads the caller never joins, so this registry is their join: the program calls
/// `NetworkShutdown.drain` on its way out.
public enum NetworkShutdown {
    /// Refuses new transfers, cancels the running ones (they stop at their next libcurl
    /// callback, within about a second even mid-handshake) and waits up to `timeout` seconds for
    /// them to return. True when none is left: the process may `exit`; false: one is still inside
    /// libcurl, and the process must end without running library destructors (`_exit`).
    public static func drain(timeout: TimeInterval) -> Bool {
        TransferRegistry.shared.drain(timeout: timeout)
    }

    /// Transfers running now (for tests and diagnostics).
    public static var running: Int { TransferRegistry.shared.count }
}

/// The running transfers and their cancellation flags.
final class TransferRegistry: Sendable {
    static let shared = TransferRegistry()

    private struct State {
        var running: [UInt64: CancellationFlag] = [:]
        var next: UInt64 = 0
        var closed = false
    }

    private let state = Mutex(State())

    /// Registers a transfer; nil once the process is shutting down (the transfer must not start).
    func enter(_ flag: CancellationFlag) -> UInt64? {
        state.withLock { s in
            guard !s.closed else { return nil }
            s.next &+= 1
            s.running[s.next] = flag
            return s.next
        }
    }

    func leave(_ ticket: UInt64) {
        _ = state.withLock { $0.running.removeValue(forKey: ticket) }
    }

    var count: Int { state.withLock { $0.running.count } }

    func drain(timeout: TimeInterval) -> Bool {
        let flags = state.withLock { s in
            s.closed = true
            return Array(s.running.values)
        }
        for flag in flags { flag.cancel() }
        let deadline = Date().addingTimeInterval(max(0, timeout))
        // Polled: this runs once, at exit, and a condition variable would have to be signalled
        // from every transfer's end for this one wait.
        while count > 0 {
            if Date() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }
}
