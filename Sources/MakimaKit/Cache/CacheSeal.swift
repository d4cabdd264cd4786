import Foundation

/// Whether the cache file is the one this program closed cleanly last time. Checking the
/// whole file at opening (`PRAGMA quick_check`, every page) costs about a millisecond per MB
/// on the UI thread before the first frame: 100 ms and more for a large mesh's task table.
/// A clean close writes a seal beside the database (`cache.sqlite.sealed`: its size and
/// modification time, and its -wal's); an opening that finds the seal matching the files
/// skips the full check, and removes the seal, so a session that crashes, or a file changed
/// by anything else since (truncated, overwritten, restored), is checked in full next time.
enum CacheSeal {
    static func sealPath(_ path: String) -> String { path + ".sealed" }

    /// The database's and its -wal's size and modification time, as one line.
    private static func fingerprint(_ path: String) -> String? {
        var parts: [String] = []
        for suffix in ["", "-wal"] {
            var st = stat()
            if lstat(path + suffix, &st) != 0 {
                if suffix.isEmpty { return nil }
                parts.append("none")
                continue
            }
            guard (st.st_mode & S_IFMT) == S_IFREG else { return nil }
            parts.append("\(st.st_size) \(st.st_mtim.tv_sec) \(st.st_mtim.tv_nsec)")
        }
        return parts.joined(separator: " / ")
    }

    /// After a clean close: the seal, written owner-only (a failure only costs the next
    /// opening its full check).
    static func seal(_ path: String) {
        guard let print = fingerprint(path) else { return }
        let seal = sealPath(path)
        unlink(seal)
        let fd = Foundation.open(seal, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { Foundation.close(fd) }
        let bytes = Array(print.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// True when the seal matches the files as they are; the seal is removed either way.
    static func take(_ path: String) -> Bool {
        let seal = sealPath(path)
        defer { unlink(seal) }
        var st = stat()
        guard lstat(seal, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size < 256,
            let data = FileManager.default.contents(atPath: seal), let print = fingerprint(path)
        else { return false }
        return String(decoding: data, as: UTF8.self) == print
    }
}
