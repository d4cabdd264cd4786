import Foundation
import MakimaKit

/// The one way out of the program: every command returns its code to `main`, which ends here.
enum ProcessExit {
    /// How long running transfers get to notice their cancellation (libcurl checks about once a
    /// second mid-handshake; loading the system certificates cannot be interrupted).
    static let drainTimeout: TimeInterval = 5

    /// Stops and waits for the HTTP and WebSocket transfers still running on other threads, then
    /// exits. If one is still inside libcurl after the wait, the process ends with `_exit`, which
    /// skips the library destructors that would free what that thread is using (OpenSSL's
    /// certificate store) and crash the process on its way out. Output is written unbuffered
    /// (`FileHandle`), so `_exit` loses none.
    static func exit(_ status: Int32) -> Never {
        let idle = NetworkShutdown.drain(timeout: drainTimeout)
        fflush(nil)  // every C stream (Swift's print goes through stdout's buffer)
        if idle { Foundation.exit(status) }
        _exit(status)
    }
}
