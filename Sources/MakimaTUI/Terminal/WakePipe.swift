import Glibc
import MakimaKit

/// A non-blocking pipe whose read end the UI thread polls: any thread (or a signal handler)
/// writes a byte to wake it.
public final class WakePipe: Sendable {
    public let readFD: Int32
    public let writeFD: Int32

    public init() throws(TerminalError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system("pipe", errno) }
        for fd in fds {
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Wakes the reader. A full pipe already means "wake up", so EAGAIN is fine.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe (the reader then handles whatever it was woken for).
    public func drain() {
        var scratch = [UInt8](repeating: 0, count: 256)
        while read(readFD, &scratch, scratch.count) > 0 {}
    }
}

public enum TerminalError: Error, CustomStringConvertible, Sendable {
    case system(String, Int32)
    case cannotStart(String)
    /// The terminal's terminfo entry has no cursor addressing (`cup`): a full-screen
    /// dashboard cannot be drawn on it.
    case noCursorAddressing(String)

    public var description: String {
        switch self {
        case .system(let call, let code): return "\(call) failed: \(String(cString: strerror(code)))"
        case .cannotStart(let why): return "cannot start the terminal: \(why)"
        case .noCursorAddressing(let name):
            return "TERM=\(UntrustedText.clean(name)) cannot move the cursor, so the dashboard cannot be drawn;"
                + " run it in a terminal such as xterm-256color (the commands status, logs, watch and grep work here)"
        }
    }

    /// The process's exit status when the dashboard cannot start for this reason
    /// (README's exit codes: 8 for a terminal without cursor addressing).
    public var exitStatus: Int32 {
        if case .noCursorAddressing = self { return 8 }
        return 1
    }
}
