import Glibc

/// Runs one program and waits for it, at most `timeout` seconds. Only `ChildLauncher` calls
/// it: that is the one way the client starts a child (one at a time, queue bounded).
///
/// Written on posix_spawn rather than Foundation's `Process`: the child must be in a process
/// group of its own so a timeout can kill whatever it started, and `Process` neither offers
/// that nor reports the child's exit while a grandchild still holds its descriptors (a timeout
/// would then wait forever). The child gets /dev/null for stdin, stdout and stderr (its input
/// on stdin and its stdout read back when the caller asks), no other descriptor of ours, and
/// exactly the environment given.
enum ChildProcess {
    enum Outcome: Equatable {
        case exited(Int32)
        case timedOut
        case couldNotStart(Int32)
    }

    /// The most a child is given on stdin: below a pipe's smallest capacity (4 KiB pages, 16 of
    /// them by default), so the whole input is written before the child runs and a child that
    /// never reads cannot hold the launcher.
    static let longestInput = 16 * 1024

    static func run(
        _ path: String, _ arguments: [String], environment: [String: String], timeout: Double, input: [UInt8] = []
    ) -> Outcome {
        let stdin = InputPipe(input)
        defer { stdin?.close() }
        switch spawn(path, arguments, environment: environment, stdin: stdin?.readEnd, stdout: nil) {
        case .failure(let e): return .couldNotStart(e.status)
        case .success(let pid):
            stdin?.feed()
            return wait(pid, timeout: timeout)
        }
    }

    /// As `run`, with the child's stdout read into memory (at most `limit` bytes kept; the
    /// rest is read and dropped, so a chatty child never blocks on a full pipe).
    static func capture(
        _ path: String, _ arguments: [String], environment: [String: String], timeout: Double,
        input: [UInt8] = [], limit: Int = 4096
    ) -> (Outcome, [UInt8]) {
        let stdin = InputPipe(input)
        defer { stdin?.close() }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return (.couldNotStart(errno), []) }
        // Close-on-exec, so no other child inherits either end (the spawn dup2s the write end).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let spawned = spawn(path, arguments, environment: environment, stdin: stdin?.readEnd, stdout: fds[1])
        close(fds[1])
        defer { close(fds[0]) }
        let pid: pid_t
        switch spawned {
        case .failure(let e): return (.couldNotStart(e.status), [])
        case .success(let p): pid = p
        }
        stdin?.feed()
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        var kept: [UInt8] = []
        let outcome = wait(pid, timeout: timeout) { drain(fds[0], into: &kept, limit: limit) }
        drain(fds[0], into: &kept, limit: limit)
        return (outcome, kept)
    }

    /// Reads what the pipe holds now (non-blocking), keeping up to `limit` bytes.
    private static func drain(_ fd: Int32, into kept: inout [UInt8], limit: Int) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            kept += buffer.prefix(min(n, max(0, limit - kept.count)))
        }
    }

    /// Starts the child in a process group of its own with /dev/null on 0, 1 and 2, unless
    /// `stdin` or `stdout` names the descriptor to put there.
    private static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], stdin: Int32?, stdout: Int32?
    ) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 {
            if let given = fd == 0 ? stdin : fd == 1 ? stdout : nil {
                posix_spawn_file_actions_adddup2(&actions, given, fd)
            } else {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        if let closeFrom3 { _ = closeFrom3(&actions, 3) } else { markInheritedDescriptorsCloseOnExec() }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGWINCH] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        return status == 0 ? .success(pid) : .failure(SpawnError(status: status))
    }

    struct SpawnError: Error { let status: Int32 }

    /// Polls for the child's exit (10 ms steps, so a stuck child costs no busy loop); past the
    /// timeout its whole process group is killed and reaped.
    private static func wait(_ pid: pid_t, timeout: Double, eachStep: () -> Void = {}) -> Outcome {
        let steps = max(1, Int((timeout * 100).rounded(.up)))
        var status: Int32 = 0
        for _ in 0..<steps {
            eachStep()
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return .exited(status) }
            if r < 0 && errno != EINTR { return .exited(-1) }
            usleep(10_000)
        }
        kill(-pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return .timedOut
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run
    /// time because the Swift Glibc module does not declare it.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom3: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Without closefrom in the spawn: every descriptor from 3 up is marked close-on-exec in
    /// this process (nothing here hands a descriptor to a child on purpose), so the exec drops
    /// them all the same.
    private static func markInheritedDescriptorsCloseOnExec() {
        guard let dir = opendir("/proc/self/fd") else { return }
        defer { closedir(dir) }
        let own = dirfd(dir)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name), fd > 2, fd != own else { continue }
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        }
    }
}

/// The child's stdin when it is given input: a pipe whose read end the spawn puts on 0 and
/// whose write end is ours only. The input (at most `ChildProcess.longestInput`) fits the
/// pipe, so `feed` never blocks on a child that does not read.
private final class InputPipe {
    private var ends: [Int32] = [-1, -1]
    private let bytes: [UInt8]
    var readEnd: Int32 { ends[0] }

    init?(_ input: [UInt8]) {
        guard !input.isEmpty else { return nil }
        bytes = Array(input.prefix(ChildProcess.longestInput))
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// Writes the input and closes our end, so the child reads an end of file after it. A
    /// child gone already (EPIPE: the dashboard, the one program that gives input, ignores
    /// SIGPIPE) just gets less.
    func feed() {
        closeEnd(0)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            written += n
        }
        closeEnd(1)
    }

    func close() {
        closeEnd(0)
        closeEnd(1)
    }

    private func closeEnd(_ i: Int) {
        if ends[i] >= 0 { Glibc.close(ends[i]) }
        ends[i] = -1
    }
}
