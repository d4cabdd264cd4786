import Foundation

extension Pipe {
    /// A pipe whose two ends no other child inherits. Foundation makes pipes without
    /// close-on-exec, and the suites run in parallel: a dev server started by one test while
    /// another's pipe was open kept that pipe's write end for its whole life, and the other
    /// test's read to the end waited for the server, not for its own child (five quick CLI
    /// runs hit their one-minute limit together under load). The child the pipe is given to
    /// still gets it: spawning dups it onto the child's 0, 1 or 2, which stay open.
    static func closedOnExec() -> Pipe {
        let pipe = Pipe()
        for fd in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        }
        return pipe
    }
}
