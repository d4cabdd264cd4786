import Foundation
import Synchronization

/// What other threads ask of a running connection: texts to send and a close. The connection's
/// thread takes them between waits; the wake pipe gets it out of `poll()` to do so.
final class WebSocketOutbox: Sendable {
    struct Pending {
        var texts: [String] = []
        var close: (code: UInt16, reason: String)?
    }

    let wake: WebSocketWakePipe
    private let pending = Mutex(Pending())
    /// Read without the lock by libcurl's progress callback, to abort a connect in progress.
    private let closing = Atomic<Bool>(false)

    init() throws(WebSocketSetupError) {
        wake = try WebSocketWakePipe()
    }

    var isClosing: Bool { closing.load(ordering: .acquiring) }

    func send(_ text: String) {
        pending.withLock { $0.texts.append(text) }
        wake.wake()
    }

    /// The first close asked for wins; later ones change nothing.
    func close(code: UInt16, reason: String) {
        pending.withLock { p in
            if p.close == nil { p.close = (code, reason) }
        }
        closing.store(true, ordering: .releasing)
        wake.wake()
    }

    func take() -> Pending {
        pending.withLock { p in
            let taken = p
            p.texts.removeAll()
            return taken
        }
    }
}
