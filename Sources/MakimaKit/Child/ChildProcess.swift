import Glibc

/// Runs one program and waits for it, at most `timeout` seconds. Only `ChildLauncher` calls
/// it: that is the one way the client starts a child (one at a time, queue bounded).
///
/// Written on posix_spawn rather than Foundation's `Process`: the child must be in a process
/// group of its own so a timeout can kill whatever it started, and `Process` neither offers
/// that nor reports the child's exit while a grandchild still holds its descriptors (a timeout
/// would then wait forever). The child gets /dev/null for stdin, stdout and stderr, no other
/// descriptor of ours, and exactly the environment given.
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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if !input.isEmpty, pipe(&pipeEnds) == 0 {
            // Ours only: the child gets the read end as its stdin, never the write end.
            for fd in pipeEnds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        } else {
            pipeEnds = [-1, -1]
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        defer { for fd in pipeEnds where fd >= 0 { close(fd) } }
        for fd: Int32 in 1...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
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
        guard status == 0 else { return .couldNotStart(status) }
        if pipeEnds[1] >= 0 {
            close(pipeEnds[0])
            pipeEnds[0] = -1
            let bytes = Array(input.prefix(longestInput))
            var written = 0
            // A child gone already (EPIPE: the dashboard, the one program that gives input, ignores SIGPIPE) just gets less.
            while written < bytes.count {
                let n = bytes.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress! + written, bytes.count - written) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                written += n
            }
            close(pipeEnds[1])
            pipeEnds[1] = -1
        }
        return wait(pid, timeout: timeout)
    }

    /// Polls for the child's exit (10 ms steps, so a stuck child costs no busy loop); past the
    /// timeout its whole process group is killed and reaped.
    private static func wait(_ pid: pid_t, timeout: Double) -> Outcome {
        let steps = max(1, Int((timeout * 100).rounded(.up)))
        var status: Int32 = 0
        for _ in 0..<steps {
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
