import CSQLiteShim
import Foundation
import Synchronization

/// The UI thread's connection to the task table (`TaskRows`): counts, windows of rows, one
/// task by id, `/` matches. Every read is an indexed query bounded by what it returns.
///
/// Reading the cache (`reading:`): a connection of its own on the cache file (WAL: it reads
/// the last commit while the writer threads write), never writing; the rows come from the
/// threads that save lists and append events. Without a cache (`inMemory()`: `status`, tests,
/// a cache that could not be opened) the table is a private in-memory database and the store
/// writes the lists and statuses it is given itself (`ownsWrites`).
public final class TaskTable: Sendable {
    public let ownsWrites: Bool
    private let connection: Mutex<SQLiteDatabase?>
    private let stamp = Mutex<Int64>(0)
    private let counts = Mutex<(version: Int64, byFilter: [TasksStore.Filter: Int])>((-1, [:]))
    /// The cache file read, when it is one: a corruption error met here marks it damaged.
    private let cacheFile: String?
    /// Statements run on the connection (reads, and the store's own writes): what a test counts
    /// to show a drain of events reads nothing per event.
    private let queries = Atomic<Int>(0)

    private init(_ database: consuming sending SQLiteDatabase, ownsWrites: Bool, cacheFile: String? = nil) {
        self.ownsWrites = ownsWrites
        self.cacheFile = cacheFile
        connection = Mutex(database)
    }

    /// A private table in memory, written by its store.
    public static func inMemory() -> TaskTable {
        // An in-memory database with the table's schema cannot fail to open but for lack of memory.
        let db = try! SQLiteDatabase(path: ":memory:")
        try! db.exec(TaskRows.createSQL)
        return TaskTable(db, ownsWrites: true)
    }

    /// A reading connection on a cache file its `CacheStore` opened (and migrated); a private
    /// in-memory table when the file cannot be read from a second connection.
    public static func reading(_ file: URL) -> TaskTable {
        do {
            let db = try SQLiteDatabase(
                path: file.path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW)
            db.setBusyTimeout(milliseconds: 1_000)
            _ = try db.scalarInt("SELECT count(*) FROM task_rows WHERE 0")
            return TaskTable(db, ownsWrites: false, cacheFile: file.path)
        } catch {
            return inMemory()
        }
    }

    /// Runs `body` on the connection; a failed read reads as nothing (the next change reads
    /// again). A damaged cache file is marked so (`CacheSeal`): it is not sealed at the close,
    /// and the next start replaces it.
    private func read<T: Sendable>(_ fallback: T, _ body: (SQLiteDatabase) throws -> T) -> T {
        queries.add(1, ordering: .relaxed)
        return connection.withLock { db in
            guard let db else { return fallback }
            do { return try body(db) } catch {
                if let cacheFile, let e = error as? SQLiteError, e.kind == .corrupt {
                    CacheSeal.markDamaged(cacheFile, reason: e.message)
                }
                return fallback
            }
        }
    }

    public func close() { connection.withLock { $0 = nil } }

    public var queriesRun: Int { queries.load(ordering: .relaxed) }

    // MARK: Reads

    /// Counts are kept until the table changes: another connection's commit (SQLite's
    /// `data_version`) or a write of the store's own. A rebuild for a status not yet
    /// committed (the overlay) costs no count.
    public func count(_ filter: TasksStore.Filter) -> Int {
        read(0) { db in
            let version = try db.scalarInt("PRAGMA data_version") ?? 0
            return try counts.withLock { counts in
                if counts.version != version || counts.byFilter.count > 64 { counts = (version, [:]) }
                if let n = counts.byFilter[filter] { return n }
                let n = try TaskRows.count(filter, in: db)
                counts.byFilter[filter] = n
                return n
            }
        }
    }

    public func rows(_ filter: TasksStore.Filter, offset: Int, limit: Int) -> [MeshTask] {
        read([]) { try TaskRows.rows(filter, offset: offset, limit: limit, in: $0) }
    }

    public func task(id: String) -> MeshTask? { read(nil) { try TaskRows.task(id: id, in: $0) } }

    public func position(of id: String, in filter: TasksStore.Filter) -> Int? {
        read(nil) { try TaskRows.position(of: id, in: filter, db: $0) }
    }

    /// The ids whose title holds `needle` (case-folded here), in the list's order, at most
    /// `TaskRows.maxMatches`; `capped` when there are more.
    public func search(_ needle: String, in filter: TasksStore.Filter) -> (ids: [String], capped: Bool) {
        let (ids, capped, partial) = read(([String](), false, false)) {
            try TaskRows.search(needle.lowercased(), in: filter, db: $0)
        }
        return (ids, capped || (partial && count(filter) > TaskRows.shortScanRows))
    }

    // MARK: Writes (a table its store owns)

    /// A list given whole: its tasks, and (when `whole`) the rows of its scope it lacks deleted.
    func save(_ tasks: [MeshTask], filter: TasksStore.Filter, whole: Bool) {
        write { db, stamp in
            try TaskRows.upsert(tasks, stamp: stamp, in: db)
            if whole { try TaskRows.finishPass(filter, since: stamp, in: db) }
        }
    }

    func setStatuses(_ changes: [(id: String, status: TaskStatus, at: Date)]) {
        write { db, stamp in try TaskRows.setStatus(changes, stamp: stamp, in: db) }
    }

    func removeAll() { write { db, _ in try TaskRows.deleteAll(in: db) } }

    private func write(_ body: (SQLiteDatabase, Int64) throws -> Void) {
        guard ownsWrites else { return }
        let next = stamp.withLock { s in
            s += 1
            return s
        }
        let _: Bool = read(false) { db in
            try db.transaction { try body(db, next) }
            return true
        }
        counts.withLock { $0 = (-1, [:]) }
    }
}
