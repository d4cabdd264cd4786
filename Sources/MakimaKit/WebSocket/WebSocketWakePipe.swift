import Foundation

/// A self-pipe another thread writes one byte to, so a thread blocked in `poll()` wakes up.
/// Both ends are non-blocking: a full pipe already means "wake up", so a failed write is fine.
final class WebSocketWakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(WebSocketSetupError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system("pipe: \(String(cString: strerror(errno)))") }
        for fd in fds {
            let flags = fcntl(fd, F_GETFL)
            // Configured before the properties are set: a failure here closes by hand, and no
            // deinit runs (it would only run once every stored property is set).
            guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
                let why = String(cString: strerror(errno))
                close(fds[0])
                close(fds[1])
                throw .system("fcntl: \(why)")
            }
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    /// Blocks up to `timeout` seconds (nil: forever) for a wake-up; true if one came.
    /// The byte is consumed.
    func wait(timeout: TimeInterval?) -> Bool {
        var fd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let n = poll(&fd, 1, timeout.map(WebSocketWakePipe.pollMilliseconds) ?? -1)
        guard n > 0 else { return false }
        drain()
        return true
    }

    /// A poll() timeout from seconds: rounded up so a deadline is not woken for 1 ms early and
    /// spun on, never negative, at most a day.
    static func pollMilliseconds(_ seconds: TimeInterval) -> Int32 {
        guard seconds > 0 else { return 0 }
        return Int32(min((seconds * 1000).rounded(.up), 86_400_000))
    }
}
