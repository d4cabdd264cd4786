import Foundation
import Synchronization

/// What `CacheStore.open` returns: the store, and a message for the user when the old cache
/// had to be replaced (show it once, e.g. as a toast).
public struct CacheOpenResult: Sendable {
    public let store: CacheStore
    public let notice: String?
}

/// The offline-first cache of one server profile: the last fetched lists (with when they were
/// fetched) and the newest task events, in one SQLite database per profile.
///
/// Threads: every call is serialised on one connection by an internal lock, so the store is
/// `Sendable` and may be shared, e.g. the sync engine's writer thread appends events while the
/// UI thread reads at start-up. A call blocks while another runs; event appends are split into
/// transactions of at most `maxEventsPerTransaction` so the lock is never held for long.
/// Do not call it from the cooperative pool in a hot loop: it does blocking file I/O.
///
/// Errors are `CacheError`. After `.diskFull` the failed write is rolled back whole and reads
/// keep working. Every write is one transaction in a WAL database, so a kill -9 at any moment
/// leaves either all of a write or none of it.
public final class CacheStore: Sendable {
    /// How much task output is kept (per task, by age, in total); see `CacheRetention`.
    public let retention: CacheRetention
    /// The newest events kept per task (2000 by default; docs/architecture.md).
    public var eventsKeptPerTask: Int { retention.eventsPerTask }
    /// When the output search index last caught up with the events written (`indexIfDue`).
    let lastIndexed = Mutex<Date?>(nil)
    /// How long after a catch-up the next append catches up again (tests set 0 or never, so
    /// what they assert holds whichever way a machine's speed falls). Every search catches up
    /// first, so this is only the pace of the writes: 30 s rather than 1 s cut what a stream of
    /// 1,000 pieces a second writes by about 30 % (fewer FTS segments to write and merge).
    package let indexInterval = Mutex<TimeInterval>(30)
    public static let maxEventsPerTransaction = 2_000
    /// The task table's newest stamp (`TaskRows`), read from the table on first use.
    let taskStamp = Mutex<Int64?>(nil)
    /// The file's space: measured, pruned and given back (`CacheSpaceManager`).
    let space: CacheSpaceManager

    public let file: URL
    private let connection: Mutex<SQLiteDatabase?>

    private init(file: URL, database: consuming sending SQLiteDatabase, retention: CacheRetention) {
        self.file = file
        self.retention = retention
        space = CacheSpaceManager(retention: retention, maxTaskRows: retention.taskBytes / Self.bytesPerTaskRow)
        connection = Mutex(database)
    }

    /// Opens (or creates) the cache of a profile at `CacheLocation.databaseFile(profileKey:)`.
    public static func open(
        profileKey: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CacheError) -> CacheOpenResult {
        try open(
            file: CacheLocation.databaseFile(profileKey: profileKey, environment: environment),
            retention: .configured(environment: environment))
    }

    /// Opens (or creates) a cache database at an explicit path; its directory is created if needed.
    /// `eventsKeptPerTask`, when given, overrides the retention's. Finished tasks past their
    /// age are pruned here, once at opening, then as events are appended. `busyTimeoutMilliseconds`
    /// replaces how long a lock held by another connection is waited for (5 s).
    public static func open(
        file: URL, now: Date = Date(),
        eventsKeptPerTask: Int? = nil, retention: CacheRetention = .standard, busyTimeoutMilliseconds: Int32? = nil
    ) throws(CacheError) -> CacheOpenResult {
        let (database, notice) = try CacheOpener.open(
            file: file, now: now,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds ?? CacheOpener.busyTimeoutMilliseconds)
        var policy = retention
        if let eventsKeptPerTask { policy.eventsPerTask = max(1, eventsKeptPerTask) }
        let store = CacheStore(file: file, database: database, retention: policy)
        // A missing search index gets its tables here, empty; it is filled by the writer's
        // first catch-up or the first search, not on the thread that opens the cache.
        _ = try? store.withDatabase { db in try OutputSearchIndex.prepare(db) }
        // The cap holds for the file and its -wal together: the -wal is checkpointed once it
        // holds a sixteenth of the cap (SQLite's default, 1,000 pages, is 4 MB whatever the cap),
        // and cut back to that size at its next checkpoint when a large write grew it.
        _ = try? store.withDatabase { db in
            let walBytes = policy.maxBytes / 16
            let pageSize = max(512, Int(try db.scalarInt("PRAGMA page_size") ?? 4096))
            try db.exec("PRAGMA journal_size_limit = \(walBytes)")
            try db.exec("PRAGMA wal_autocheckpoint = \(max(16, walBytes / pageSize))")
        }
        _ = try? store.prune(now: now, bounds: false)
        return CacheOpenResult(store: store, notice: notice)
    }

    /// `PRAGMA integrity_check`: true only when SQLite finds nothing wrong.
    public func integrityCheck() -> Bool {
        (try? withDatabase { db in try db.scalarText("PRAGMA integrity_check") == "ok" }) ?? false
    }

    /// Closes the connection; later calls throw `CacheError.closed`. A clean close seals the
    /// file (`CacheSeal`), so the next opening skips its full check if nothing changed it
    /// meanwhile; a file found damaged while open is not sealed (`foundDamage`).
    public func close() {
        let closed = connection.withLock { db -> Bool in
            guard let open = db else { return false }
            open.close()
            db = nil
            return true
        }
        if closed { CacheSeal.seal(file.path) }
    }

    /// A corruption error was met on this file while it was open (`CacheSeal.markDamaged`):
    /// it will not be sealed, and its next opening moves it aside. A command that finds this
    /// after a read closes the store and opens it again to get a fresh cache.
    public var foundDamage: Bool { CacheSeal.isMarkedDamaged(file.path) }

    /// Runs `body` with the connection, under the lock; any error becomes a `CacheError`. A
    /// corruption error marks the file damaged, unless the caller repairs what it read
    /// (`markingDamage: false`: the search index, which is built again from the events).
    func withDatabase<T: Sendable>(markingDamage: Bool = true, _ body: (SQLiteDatabase) throws -> T)
        throws(CacheError) -> T
    {
        let path = file.path
        let result: Result<T, CacheError> = connection.withLock { db in
            guard let db else { return .failure(.closed) }
            do { return .success(try body(db)) } catch { return .failure(CacheError.from(error, path: path)) }
        }
        if markingDamage, case .failure(.corrupt(let message)) = result {
            CacheSeal.markDamaged(path, reason: message)
        }
        return try result.get()
    }
}

extension CacheStore {
    /// Caps the database at `pages` pages, so a write past the cap fails with SQLITE_FULL,
    /// exactly as a full disk does (the tests' way to fill a disk). Applies to this connection.
    func limitSize(pages: Int) throws(CacheError) {
        try withDatabase { db in _ = try db.scalarInt("PRAGMA max_page_count = \(max(1, pages))") }
    }

    /// Pages in the database file now.
    func pageCount() throws(CacheError) -> Int {
        try withDatabase { db in Int(try db.scalarInt("PRAGMA page_count") ?? 0) }
    }
}
