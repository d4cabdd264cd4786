import Foundation

/// Whether the cache file is the one this program closed cleanly last time. Checking the
/// whole file at opening (`PRAGMA quick_check`, every page) costs about a millisecond per MB
/// on the UI thread before the first frame: 100 ms and more for a large mesh's task table.
/// A clean close writes a seal beside the database (`cache.sqlite.sealed`: its size and
/// modification time, and its -wal's); an opening that finds the seal matching the files
/// skips the full check, and removes the seal, so a session that crashes, or a file changed
/// by anything else since (truncated, overwritten, restored), is checked in full next time.
///
/// A seal vouches only for a file nothing found wrong: damage that keeps the file's size and
/// modification time passes the seal, so a run that meets a corruption error (SQLITE_CORRUPT,
/// SQLITE_NOTADB, from any connection on the file) marks the file damaged at once
/// (`cache.sqlite.damaged`, with SQLite's message); a marked file is never sealed, and the
/// next opening moves it aside and starts a fresh cache, whatever a check would say.
enum CacheSeal {
    static func sealPath(_ path: String) -> String { path + ".sealed" }
    static func damagePath(_ path: String) -> String { path + ".damaged" }
    /// The most of SQLite's message the mark keeps.
    static let maxReasonBytes = 200

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
        guard !isMarkedDamaged(path), let print = fingerprint(path) else { return }
        let seal = sealPath(path)
        unlink(seal)
        writeNew(seal, print)
    }

    /// A file of our own, owner-only, never through a link (a failure only costs the mark).
    private static func writeNew(_ path: String, _ text: String) {
        let fd = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { Foundation.close(fd) }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// A corruption error met while the file is in use: the seal goes, the mark stays (the
    /// first reason is kept).
    static func markDamaged(_ path: String, reason: String) {
        unlink(sealPath(path))
        guard !isMarkedDamaged(path) else { return }
        let printable = reason.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
        writeNew(damagePath(path), String(String.UnicodeScalarView(printable.prefix(maxReasonBytes))))
    }

    static func isMarkedDamaged(_ path: String) -> Bool {
        var st = stat()
        return lstat(damagePath(path), &st) == 0
    }

    /// The reason a run left when it found the file damaged (nil: no mark). Read as
    /// untrusted: at most `maxReasonBytes` of printable ASCII. The mark stays until `clearDamage`.
    static func damageReason(_ path: String) -> String? {
        guard isMarkedDamaged(path) else { return nil }
        var st = stat()
        let mark = damagePath(path)
        guard lstat(mark, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size <= maxReasonBytes,
            let data = FileManager.default.contents(atPath: mark)
        else { return "unreadable mark" }
        let printable = String(decoding: data, as: UTF8.self).unicodeScalars.filter {
            $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F
        }
        return printable.isEmpty ? "no reason given" : String(String.UnicodeScalarView(printable))
    }

    static func clearDamage(_ path: String) { unlink(damagePath(path)) }

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
