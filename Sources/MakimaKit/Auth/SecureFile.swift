import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// File operations for config and credentials: atomic replacement, owner-only modes from the
/// first byte (a file is created with O_EXCL and its final mode, written, then renamed into
/// place, so no reader ever sees it partly written or with a wider mode).
enum SecureFile {
    /// Creates `path` (and missing parents) with `mode`; an existing directory we own is
    /// tightened to `mode`.
    static func ensureDirectory(_ path: String, mode: mode_t) throws(ConfigError) {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                throw .writeFailed(path: path, reason: "it exists and is not a directory")
            }
            if st.st_uid == getuid() && (st.st_mode & 0o777) != mode && chmod(path, mode) != 0 {
                throw .writeFailed(path: path, reason: errnoText())
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path && !FileManager.default.fileExists(atPath: parent) {
            do { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) } catch {
                throw .writeFailed(path: parent, reason: "\(error.localizedDescription)")
            }
        }
        if mkdir(path, mode) != 0 && errno != EEXIST { throw .writeFailed(path: path, reason: errnoText()) }
        if chmod(path, mode) != 0 { throw .writeFailed(path: path, reason: errnoText()) }  // umask may have narrowed it
    }

    /// A directory the configuration is read from, made trustworthy before anything in it is:
    /// ours and writable by others, it is tightened to 0700 (a umask of 000, a restored
    /// backup); another user's, or writable by others when it cannot be tightened, it is
    /// refused, since whoever can write it can replace `config.json` and name the server the
    /// stored key is sent to. Its parent must not be writable by others either (unless it is
    /// sticky, like /tmp: others can then add entries but not replace ours). A missing
    /// directory is fine (nothing is read from it).
    static func trustDirectory(_ path: String) throws(ConfigError) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw .unreadable(path: path, reason: errnoText())
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .unreadable(path: path, reason: "not a directory") }
        try refuseForeignOwner(path, st)
        if st.st_mode & 0o022 != 0 && chmod(path, 0o700) != 0 {
            throw .writableByOthers(path: path, mode: UInt32(st.st_mode & 0o7777), fix: "chmod 700 '\(path)'")
        }
        // A linked directory (dotfiles kept elsewhere) is judged where it lives: whoever can
        // write the parent of its target can swap the target, whatever the link's parent is.
        var parents = [(path as NSString).deletingLastPathComponent]
        if let real = realpath(path, nil) {
            parents.append((String(cString: real) as NSString).deletingLastPathComponent)
            free(real)
        }
        for parent in parents where !parent.isEmpty && parent != path {
            var up = stat()
            if stat(parent, &up) == 0, up.st_mode & 0o022 != 0, up.st_mode & S_ISVTX == 0 {
                throw .writableByOthers(path: parent, mode: UInt32(up.st_mode & 0o7777), fix: "chmod go-w '\(parent)'")
            }
        }
    }

    /// Ours, or root's.
    private static func refuseForeignOwner(_ path: String, _ st: stat) throws(ConfigError) {
        if st.st_uid != getuid() && st.st_uid != 0 {
            throw .unreadable(
                path: path,
                reason: "owned by another user (uid \(st.st_uid)), who could name the server the key goes to")
        }
    }

    /// Writes `data` to a fresh temporary file with `mode` beside `path`, then renames it over `path`.
    static func writeAtomically(_ data: Data, to path: String, mode: mode_t) throws(ConfigError) {
        let dir = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let tmp = "\(dir)/.\(name).tmp-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: errnoText()) }
        var ok = fchmod(fd, mode) == 0
        var reason = ok ? "" : errnoText()
        if ok {
            ok = data.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += n
                }
                return true
            }
            if !ok { reason = errnoText() }
        }
        if ok && fsync(fd) != 0 {
            ok = false
            reason = errnoText()
        }
        close(fd)
        if ok && rename(tmp, path) != 0 {
            ok = false
            reason = errnoText()
        }
        if !ok {
            unlink(tmp)
            throw .writeFailed(path: path, reason: reason)
        }
    }

    /// The file's bytes, or nil when it does not exist. With `requirePrivate`, a file that
    /// group or others can read (or that another user owns) is refused. With `trusted`, a file
    /// others could write is tightened to 0600 when it is ours (through the descriptor read,
    /// so it is this file that is tightened) and refused otherwise, like another user's.
    static func read(
        _ path: String, requirePrivate: Bool, trusted: Bool = false, limit: Int = 1 << 20
    ) throws(ConfigError) -> Data? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            // O_NOFOLLOW says ELOOP ("too many levels of symbolic links") for any link.
            if errno == ELOOP { throw .unreadable(path: path, reason: linkRefused) }
            throw .unreadable(path: path, reason: errnoText())
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .unreadable(path: path, reason: errnoText()) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        if requirePrivate {
            if st.st_uid != getuid() { throw .unreadable(path: path, reason: "owned by another user") }
            if st.st_mode & 0o077 != 0 { throw .insecurePermissions(path: path, mode: UInt32(st.st_mode & 0o777)) }
        }
        if trusted {
            try refuseForeignOwner(path, st)
            if st.st_mode & 0o022 != 0 && fchmod(fd, 0o600) != 0 {
                throw .writableByOthers(path: path, mode: UInt32(st.st_mode & 0o7777), fix: "chmod 600 '\(path)'")
            }
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: errnoText())
            }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if data.count > limit { throw .unreadable(path: path, reason: "larger than \(limit) bytes") }
        }
        return data
    }

    /// Why a linked file is not read: a link can be turned to another file (a config naming
    /// another server, a key that is not ours) between our checks and the read.
    static let linkRefused =
        "it is a symbolic link; only a regular file is read here (replace the link with a copy of its file)"

    /// Removes `path`; a missing file is not an error.
    static func remove(_ path: String) throws(ConfigError) {
        if unlink(path) != 0 && errno != ENOENT { throw .writeFailed(path: path, reason: errnoText()) }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
