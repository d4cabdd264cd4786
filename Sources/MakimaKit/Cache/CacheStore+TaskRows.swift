import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// glibc's `malloc_trim(0)`: freed heap memory back to the system. Swift's Glibc module does
/// not declare it (it lives in malloc.h), so it is looked up once by name.
public enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Glibc)
            return dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)
        #else
            return nil
        #endif
    }
    private static let trim: Trim? = symbol("malloc_trim").map { unsafeBitCast($0, to: Trim.self) }

    static func run() { _ = trim?(0) }

    /// At most two malloc arenas (glibc's `mallopt(M_ARENA_MAX, 2)`, also from malloc.h). By
    /// default each thread that allocates while another holds the main arena gets one of its
    /// own (up to eight per core), and the fetch, save and writer threads' large, short-lived
    /// allocations (a page of 1,000 tasks) each leave their own arena's pages resident: on a
    /// 100,000-task mesh that was about 5 MB of the dashboard's resident memory
    /// (`scripts/rss_scale.sh`). Called once, before any thread starts.
    public static func limitArenas() {
        let mArenaMax: Int32 = -8
        if let set = symbol("mallopt").map({ unsafeBitCast($0, to: Option.self) }) { _ = set(mArenaMax, 2) }
    }
}

/// A task list being written into the task table (`TaskRows`): begun, fed page by page as the
/// pages arrive, then finished. Only a pass that saw the whole list deletes what it did not see.
public struct TaskPass: Sendable {
    public let filter: TasksStore.Filter
    /// The collection key its fetch time is kept under (`ListQuery.description`).
    public let key: String
    let start: Int64
    /// Rows the table may still take before its share of the cache is reached.
    var room: Int
    /// Some task was left out at the table's share: the pass cannot say what is gone.
    public private(set) var cut = false
    /// Tasks written so far.
    var written = 0

    mutating func take(_ n: Int) -> Int {
        let taken = max(0, min(n, room))
        room -= taken
        if taken < n { cut = true }
        return taken
    }
}

/// The writer's side of the task table. Called on the threads that save lists and append
/// events, never on the UI thread; each call is one transaction.
extension CacheStore {
    /// The task table's share: tasks' metadata has a budget of its own
    /// (`settings.cache.tasks_max_mb`, twice `max_mb` unless set; the output's pruning keeps to
    /// `max_mb`), counted as `bytesPerTaskRow` a row: 131,072 tasks at the standard 128 MB, so
    /// a mesh of 100,000 is kept whole.
    public var maxTaskRows: Int { retention.taskBytes / Self.bytesPerTaskRow }
    /// What a task takes in the file: its row, its three order indexes and the trigrams of its
    /// folded title, and its title in the output search index. Measured on the dev server's
    /// realistic titles (English and Japanese, `--seed-scale`): 112 MB for 100,000 tasks
    /// (`scripts/rss_scale.sh`); see docs/performance.md.
    public static let bytesPerTaskRow = 1_024
    /// Rows per transaction when a whole list is saved at once.
    static let taskPageSize = 1_000

    public func beginTaskPass(_ filter: TasksStore.Filter, key: String) throws(CacheError) -> TaskPass {
        try withDatabase { db in
            let rows = try countTaskRows(db)
            return TaskPass(filter: filter, key: key, start: try nextTaskStamp(db), room: max(0, maxTaskRows - rows))
        }
    }

    /// One page of the list, in one transaction. Past the table's share, tasks the table does
    /// not hold yet are left out (those it holds are still updated).
    public func writeTaskPage(_ tasks: [MeshTask], into pass: inout TaskPass) throws(CacheError) {
        guard !tasks.isEmpty else { return }
        var kept = tasks
        if pass.room < tasks.count {
            let known: Set<String> = try withDatabase { db in
                let select = try db.prepare("SELECT 1 FROM task_rows WHERE id = ?1")
                var known: Set<String> = []
                for t in tasks {
                    try select.bind(t.id, at: 1)
                    if try select.step() { known.insert(t.id) }
                    select.reset()
                }
                return known
            }
            let fresh = tasks.filter { !known.contains($0.id) }
            let allowed = Set(fresh.prefix(pass.take(fresh.count)).map(\.id))
            kept = tasks.filter { known.contains($0.id) || allowed.contains($0.id) }
        } else {
            _ = pass.take(tasks.count)
        }
        let page = kept
        pass.written += page.count
        try withDatabase { db in
            try db.transaction {
                try TaskRows.upsert(page, stamp: try nextTaskStamp(db), olderThan: pass.start, in: db)
            }
        }
    }

    /// The list is over: its fetch time is kept, and when the server gave all of it (`whole`)
    /// the rows of its scope it did not list are deleted. Tasks left out at the table's share
    /// change nothing there: they were never rows, and what the list holds is still known, so
    /// a full table still loses the tasks the server dropped (and so makes room).
    public func finishTaskPass(_ pass: TaskPass, fetchedAt: Date, whole: Bool) throws(CacheError) {
        try withDatabase { db in
            try db.transaction {
                if whole { try TaskRows.finishPass(pass.filter, since: pass.start, in: db) }
                _ = try countTaskRows(db)
                let stamp = try db.prepare("INSERT OR REPLACE INTO collections (key, fetched_at) VALUES (?1, ?2)")
                try stamp.bind(pass.key, at: 1)
                try stamp.bind(fetchedAt.timeIntervalSince1970, at: 2)
                try stamp.step()
            }
        }
        // The pages of a large list (decoded, encoded, indexed) were freed, but glibc keeps
        // freed memory inside its heap: handed back here, a mesh's history does not stay in
        // the dashboard's resident memory after it was written.
        if pass.written >= Self.trimAfterRows { HeapTrim.run() }
    }

    /// A pass writing at least this many rows trims the heap when it ends.
    static let trimAfterRows = 10_000

    /// A list that arrived whole (a cache the streaming pass could not begin on, the bench's
    /// seeding): written a page at a time into a pass begun now, then finished. A fetch with a
    /// cache streams into a pass begun before it instead (`TaskTableSink`).
    public func saveTaskList(
        _ tasks: [MeshTask], filter: TasksStore.Filter, key: String, fetchedAt: Date, whole: Bool
    ) throws(CacheError) {
        var pass = try beginTaskPass(filter, key: key)
        for start in stride(from: 0, to: tasks.count, by: Self.taskPageSize) {
            try writeTaskPage(Array(tasks[start..<min(start + Self.taskPageSize, tasks.count)]), into: &pass)
        }
        try finishTaskPass(pass, fetchedAt: fetchedAt, whole: whole)
        // The output search index finds tasks by title too (`:grep`).
        try indexTaskTitles(Self.titlesOnly(tasks.prefix(maxTaskRows)))
    }

    /// When the task list under `key` was last saved, or nil.
    public func taskListFetchedAt(key: String) throws(CacheError) -> Date? {
        try withDatabase { db in
            let select = try db.prepare("SELECT fetched_at FROM collections WHERE key = ?1")
            try select.bind(key, at: 1)
            return try select.step() ? select.date(0) : nil
        }
    }

    /// Status events, in the writer's transaction: each task's row takes its last status.
    static func recordStatuses(
        of events: [TaskEvent], now: Date, stamp: Int64, maxRows: Int, in db: SQLiteDatabase,
        counted: (Int) -> Void
    ) throws {
        var last: [String: (status: TaskStatus, at: Date)] = [:]
        for e in events { if case .status(let s, _, _) = e.payload { last[e.taskID] = (s, e.ts ?? now) } }
        guard !last.isEmpty else { return }
        let rows = Int(try db.scalarInt("SELECT count(*) FROM task_rows") ?? 0)
        let added = try TaskRows.setStatus(
            last.map { ($0.key, $0.value.status, $0.value.at) }, stamp: stamp, room: maxRows - rows, in: db)
        counted(rows + added)
    }

    /// A stamp for a fetch about to start: what an event writes from now on is newer than its
    /// answer (`nameTasks`).
    public func fetchStamp() throws(CacheError) -> Int64 { try withDatabase { try nextTaskStamp($0) } }

    /// Tasks fetched because an event named them before any list held them, into the task
    /// table (within its share) and the search index; their statuses yield to events written
    /// since `since` (`fetchStamp()`, taken before the fetch).
    public func nameTasks(_ tasks: [MeshTask], since: Int64) throws(CacheError) {
        guard !tasks.isEmpty else { return }
        try withDatabase { db in
            try db.transaction {
                let rows = try countTaskRows(db)
                let added = try TaskRows.name(
                    tasks, stamp: try nextTaskStamp(db), olderThan: since, room: maxTaskRows - rows, in: db)
                space.taskRowsCounted(rows + added)
            }
        }
        try indexTaskTitles(Self.titlesOnly(tasks))
    }

    /// A stamp newer than every one written (call with the connection held).
    func nextTaskStamp(_ db: SQLiteDatabase) throws -> Int64 {
        try taskStamp.withLock { stamp in
            let next = try (stamp ?? TaskRows.newestStamp(in: db)) + 1
            stamp = next
            return next
        }
    }

    /// Tasks as a list row knows them, for the search index: titles only. A list's plans
    /// (kilobytes each, 100,000 of them) would hold the index far above the cache's cap;
    /// a plan is indexed when its task is fetched on its own.
    static func titlesOnly(_ tasks: some Sequence<MeshTask>) -> [MeshTask] {
        tasks.map {
            var t = $0
            t.plan = ""
            return t
        }
    }
}
