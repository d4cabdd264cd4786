import Foundation
import Synchronization

/// Starts a `Process` from a thread whose signal mask is empty. Test code runs on dispatch
/// worker threads, which block nearly every signal, and Foundation's `Process` passes the
/// spawning thread's mask on to the child: a server started from there ignores SIGTERM.
enum SignalSafeSpawn {
    static func run(_ process: Process) throws {
        let result = Mutex<Error?>(nil)
        let done = DispatchSemaphore(value: 0)
        let p = process
        let thread = Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            do { try p.run() } catch { result.withLock { $0 = error } }
            done.signal()
        }
        thread.start()
        done.wait()
        if let error = result.withLock({ $0 }) { throw error }
    }
}
