import CSQLiteShim
import Foundation

/// Opens a cache database and makes it usable: WAL journal, `synchronous=NORMAL`, a busy
/// timeout, a quick integrity check, the current schema. A file that is damaged, not a database,
/// from a newer build, or cannot be opened at all is moved aside (`cache.sqlite.corrupt-<UTC time>`,
/// with its -wal and -shm) and a fresh database is created in its place, with a notice saying so.
/// A busy database is never moved aside: another instance is using it.
enum CacheOpener {
    static let busyTimeoutMilliseconds: Int32 = 5_000

    static func open(file: URL, now: Date) throws(CacheError) -> (database: SQLiteDatabase, notice: String?) {
        let path = file.path
        try makeDirectory(file.deletingLastPathComponent())
        do {
            return (try connect(path: path), nil)
        } catch {
            guard let reason = damageReason(error, path: path) else { throw CacheError.from(error, path: path) }
            let asideName = try moveAside(file: file, now: now)
            let notice =
                "The offline cache was unreadable (\(reason)); it was moved to \(asideName) and a new one was started."
            do {
                return (try connect(path: path), notice)
            } catch {
                throw CacheError.from(error, path: path)
            }
        }
    }

    /// Why the file should be replaced, or nil when the error is not the file's fault.
    private static func damageReason(_ error: any Error, path: String) -> String? {
        switch error {
        case let e as SQLiteError:
            switch e.kind {
            case .corrupt: return e.message
            // Only a file that is there but cannot be used is damage; a missing directory is not.
            case .cantOpen, .readOnly:
                return FileManager.default.fileExists(atPath: path) ? e.message : nil
            case .diskFull, .busy, .other: return nil
            }
        case CacheSchema.Problem.newerVersion(let v): return "made by a newer version, schema \(v)"
        case CacheSchema.Problem.missingTables(let names): return "missing tables: \(names.joined(separator: ", "))"
        default: return nil
        }
    }

    private static func connect(path: String) throws -> SQLiteDatabase {
        createPrivateFile(path)
        let db = try SQLiteDatabase(path: path)
        do {
            db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            // WAL + transactions make every commit atomic and survive kill -9; NORMAL syncs at
            // checkpoints only (a power cut may lose the last commits, never consistency).
            _ = try db.scalarText("PRAGMA journal_mode = WAL")
            try db.exec("PRAGMA synchronous = NORMAL")
            // Reads every page: catches truncated files and damage the header alone does not show.
            let check = try db.scalarText("PRAGMA quick_check(1)") ?? "no answer"
            if check != "ok" { throw SQLiteError(code: SQLITE_CORRUPT, message: "quick_check: \(check)") }
            try CacheSchema.migrate(db)
            return db
        } catch {
            db.close()
            throw error
        }
    }

    /// The cache holds server data: the file is made owner-only before SQLite creates it
    /// (SQLite gives the -wal and -shm files the same mode).
    private static func createPrivateFile(_ path: String) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let fd = Foundation.open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 { Foundation.close(fd) }
    }

    private static func makeDirectory(_ dir: URL) throws(CacheError) {
        do {
            try FileManager.default.createDirectory(
                at: dir, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw CacheError.cantOpen(
                path: dir.path, reason: "cannot create the cache directory: \(error.localizedDescription)")
        }
    }

    /// Renames the database and its companions to `<name>.corrupt-<UTC time>[-n]<suffix>`;
    /// returns the new name of the database.
    private static func moveAside(file: URL, now: Date) throws(CacheError) -> String {
        let fm = FileManager.default
        let dir = file.deletingLastPathComponent()
        var stem = "\(file.lastPathComponent).corrupt-\(compactUTC(now))"
        var attempt = 1
        while fm.fileExists(atPath: dir.appendingPathComponent(stem).path) {
            attempt += 1
            stem = "\(file.lastPathComponent).corrupt-\(compactUTC(now))-\(attempt)"
        }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let from = file.path + suffix
            guard fm.fileExists(atPath: from) else { continue }
            let to = dir.appendingPathComponent(stem + suffix).path
            if rename(from, to) != 0 {
                let reason = String(cString: strerror(errno))
                throw CacheError.cantOpen(
                    path: file.path, reason: "unreadable, and it cannot be moved aside: \(reason)")
            }
        }
        return stem
    }

    static func compactUTC(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
