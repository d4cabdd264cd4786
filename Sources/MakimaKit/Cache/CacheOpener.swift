import CSQLiteShim
import Foundation

/// Opens a cache database and makes it usable: WAL journal, `synchronous=NORMAL`, a busy
/// timeout, a quick integrity check, the current schema. A file that is damaged, not a database,
/// from a newer build, or cannot be opened at all is moved aside (`cache.sqlite.corrupt-<UTC time>`,
/// with its -wal and -shm) and a fresh database is created in its place, with a notice saying so.
/// A busy database is never moved aside: another instance is using it.
///
/// The cache holds server data, so its files are not taken on trust: the directories are made
/// owner-only (0700; one we do not own, or a symbolic link, is refused), and the database and
/// its -wal/-shm/-journal are never reached through a symbolic link (a planted link would put
/// the database wherever it points).
enum CacheOpener {
    /// How long a connection waits for another one's lock before reporting the cache busy.
    static let busyTimeoutMilliseconds: Int32 = 5_000
    static let companionSuffixes = ["", "-wal", "-shm", "-journal"]

    static func open(file: URL, now: Date, busyTimeoutMilliseconds: Int32 = CacheOpener.busyTimeoutMilliseconds)
        throws(CacheError) -> (database: SQLiteDatabase, notice: String?)
    {
        let path = file.path
        for dir in privateDirectories(for: file) { try makePrivateDirectory(dir) }
        try refuseLinks(file)
        // A run that met a corruption error left a mark: the file goes aside unchecked.
        if let found = CacheSeal.damageReason(path) {
            defer { CacheSeal.clearDamage(path) }
            if FileManager.default.fileExists(atPath: path) {
                return try replace(file, now: now, busyTimeoutMilliseconds, reason: "damage found in use: \(found)")
            }
        }
        // The file this program closed cleanly, unchanged since, skips the full check.
        let sealed = CacheSeal.take(path)
        do {
            return (try connect(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, fullCheck: !sealed), nil)
        } catch {
            guard let reason = damageReason(error, path: path) else { throw CacheError.from(error, path: path) }
            return try replace(file, now: now, busyTimeoutMilliseconds, reason: reason)
        }
    }

    /// Moves the damaged file aside and starts a fresh one, with the notice that says so.
    private static func replace(_ file: URL, now: Date, _ busyTimeoutMilliseconds: Int32, reason: String)
        throws(CacheError) -> (database: SQLiteDatabase, notice: String?)
    {
        let asideName = try moveAside(file: file, now: now)
        let notice =
            "The offline cache was unreadable (\(reason)); it was moved to \(asideName) and a new one was started."
        do {
            return (try connect(path: file.path, busyTimeoutMilliseconds: busyTimeoutMilliseconds), notice)
        } catch {
            throw CacheError.from(error, path: file.path)
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
        case CacheSchema.Problem.impossibleVersion(let v): return "schema version \(v) is not one any version writes"
        case CacheSchema.Problem.migrationFailed(let from, let why):
            return "it does not match its schema version \(from): \(why)"
        case CacheSchema.Problem.missingTables(let names): return "missing tables: \(names.joined(separator: ", "))"
        default: return nil
        }
    }

    /// SQLite answers some lock conflicts with SQLITE_BUSY without waiting on its busy handler
    /// (turning a new file to WAL while another instance does the same, a read lock that cannot
    /// be upgraded), so two instances starting on one new cache can see "locked" at once. Such
    /// an opening is tried again, every 20 ms, until the same busy timeout has passed.
    private static func connect(path: String, busyTimeoutMilliseconds: Int32, fullCheck: Bool = true) throws
        -> SQLiteDatabase
    {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, busyTimeoutMilliseconds)) * 1_000_000
        while true {
            do {
                return try connectOnce(
                    path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, fullCheck: fullCheck)
            } catch let e as SQLiteError where e.kind == .busy && DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(20_000)
            }
        }
    }

    private static func connectOnce(path: String, busyTimeoutMilliseconds: Int32, fullCheck: Bool) throws
        -> SQLiteDatabase
    {
        createPrivateFile(path)
        let db = try SQLiteDatabase(path: path, flags: SQLiteDatabase.defaultFlags | SQLITE_OPEN_NOFOLLOW)
        do {
            db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            try readable(db, fullCheck: fullCheck)
            try CacheSchema.migrate(db)
            return db
        } catch {
            db.close()
            throw error
        }
    }

    /// Sets the journal and checks the file can be read and written. The first statements
    /// read the header and the schema: a generic SQLite error from them ("unsupported file
    /// format" for a schema format byte no SQLite writes) is the file's fault, so it counts as
    /// damage; a header asking for a newer SQLite to write opens read-only, which counts too.
    private static func readable(_ db: SQLiteDatabase, fullCheck: Bool) throws(SQLiteError) {
        do throws(SQLiteError) {
            // WAL + transactions make every commit atomic and survive kill -9; NORMAL syncs at
            // checkpoints only (a power cut may lose the last commits, never consistency).
            // Freed pages can be given back (`CacheSpaceManager.giveBackFreePages`): set on a new file,
            // before its first table. Never on an existing one: setting the mode there writes
            // the header (a write lock another instance may hold); an older file is switched
            // by the writer (`switchToIncrementalVacuum`).
            if try db.scalarInt("PRAGMA page_count") == 0 { try db.exec("PRAGMA auto_vacuum = INCREMENTAL") }
            _ = try db.scalarText("PRAGMA journal_mode = WAL")
            try db.exec("PRAGMA synchronous = NORMAL")
            // Debian's SQLite is built with secure_delete on: every page freed was zeroed and
            // written, and every row deleted zeroed in place. FAST zeroes deleted content only
            // in pages written anyway; a page freed whole is not written at all (the window's
            // trims free a few pages of chunks at a time, `ChunkWriter.slack`).
            _ = try db.scalarInt("PRAGMA secure_delete = FAST")
            // Reads every page: catches truncated files and damage the header alone does not
            // show. A file sealed at its last clean close and unchanged since (`CacheSeal`)
            // has its schema read only (which still reads the header and the first page).
            let check =
                fullCheck
                ? (try db.scalarText("PRAGMA quick_check(1)") ?? "no answer")
                : (try db.scalarText("SELECT 'ok' FROM sqlite_schema LIMIT 1") ?? "ok")
            if check != "ok" { throw SQLiteError(code: SQLITE_CORRUPT, message: "quick_check: \(check)") }
        } catch {
            throw error.kind == .other ? SQLiteError(code: SQLITE_CORRUPT, message: error.message) : error
        }
        if sqlite3_db_readonly(db.handle, "main") == 1 {
            throw SQLiteError(
                code: SQLITE_READONLY, message: "the file opens read-only (its header asks for a newer SQLite)")
        }
    }

    /// The cache holds server data: the file is made owner-only before SQLite creates it
    /// (SQLite gives the -wal and -shm files the same mode).
    /// O_EXCL and O_NOFOLLOW: an existing file (or a link, dangling or not) is left alone.
    private static func createPrivateFile(_ path: String) {
        let fd = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0 { Foundation.close(fd) }
    }

    /// The directories made owner-only, outermost first: the database's own, and the cache
    /// root above it when it is one (`CacheLocation.rootName`), since both hold the database.
    static func privateDirectories(for file: URL) -> [URL] {
        let own = file.deletingLastPathComponent()
        let parent = own.deletingLastPathComponent()
        return parent.lastPathComponent == CacheLocation.rootName ? [parent, own] : [own]
    }

    /// A symbolic link at the database or a companion file is refused, not followed or moved.
    private static func refuseLinks(_ file: URL) throws(CacheError) {
        for suffix in companionSuffixes {
            var st = stat()
            let path = file.path + suffix
            if lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK {
                throw CacheError.cantOpen(
                    path: path, reason: "it is a symbolic link, and the cache does not follow links")
            }
        }
    }

    /// Creates `dir` owner-only, or checks an existing one the way the config directory is
    /// checked: ours and a real directory, then tightened to 0700 (a world-writable cache
    /// directory would let anyone swap the database or plant a link in it).
    static func makePrivateDirectory(_ dir: URL) throws(CacheError) {
        let path = dir.path
        var st = stat()
        if lstat(path, &st) != 0 {
            let parent = dir.deletingLastPathComponent()
            if !FileManager.default.fileExists(atPath: parent.path) {
                do { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) } catch {
                    throw CacheError.cantOpen(
                        path: parent.path, reason: "cannot create the cache directory: \(error.localizedDescription)")
                }
            }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw CacheError.cantOpen(path: path, reason: "cannot create the cache directory: \(errnoText())")
            }
            guard lstat(path, &st) == 0 else { throw CacheError.cantOpen(path: path, reason: errnoText()) }
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK:
            throw CacheError.cantOpen(path: path, reason: "it is a symbolic link, and the cache does not follow links")
        default: throw CacheError.cantOpen(path: path, reason: "it exists and is not a directory")
        }
        guard st.st_uid == getuid() else {
            throw CacheError.cantOpen(path: path, reason: "the directory belongs to another user")
        }
        if st.st_mode & 0o777 != 0o700 && chmod(path, 0o700) != 0 {
            throw CacheError.cantOpen(path: path, reason: "cannot make the directory private: \(errnoText())")
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

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
        for suffix in companionSuffixes {
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
