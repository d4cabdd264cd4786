import CSQLiteShim

/// One SQLite connection. Not thread-safe: the owner serialises every call (CacheStore does,
/// with a lock), which is why it is opened with SQLITE_OPEN_NOMUTEX.
final class SQLiteDatabase {
    static let defaultFlags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE

    let path: String
    private(set) var handle: OpaquePointer?

    init(path: String, flags: Int32 = SQLiteDatabase.defaultFlags) throws(SQLiteError) {
        self.path = path
        var opened: OpaquePointer?
        let rc = sqlite3_open_v2(path, &opened, flags, nil)
        guard rc == SQLITE_OK else {
            let error = opened.map { SQLiteError(connection: $0) } ?? SQLiteError(code: rc)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(opened, 1)
    }

    deinit { close() }

    /// Statements still alive keep the connection as a zombie until they are finalised (close_v2).
    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    func exec(_ sql: String) throws(SQLiteError) {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "database is closed") }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) }
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message)
        }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "database is closed") }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(connection: handle)
        }
        return SQLiteStatement(statement, connection: handle)
    }

    /// The first column of the first row, as an integer (for PRAGMAs and counts).
    func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : nil
    }

    func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.text(0) : nil
    }

    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE (0 for an ignored duplicate).
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Rows changed by every INSERT, UPDATE and DELETE of this connection so far (triggers'
    /// included): the work a write did, counted (tests).
    var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// The rowid of the last row this connection inserted.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    var isInTransaction: Bool { handle != nil && sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` inside BEGIN IMMEDIATE … COMMIT (the write lock is taken up front, so a busy
    /// database fails here, not halfway through). Any error rolls everything back.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try exec("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try exec("COMMIT")
            return result
        } catch {
            // After some errors (SQLITE_FULL among them) SQLite has already rolled back.
            if isInTransaction { try? exec("ROLLBACK") }
            throw error
        }
    }
}
