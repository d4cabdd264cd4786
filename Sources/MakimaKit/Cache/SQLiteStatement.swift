import CSQLiteShim

/// A prepared statement. Parameter and column indexes are as SQLite counts them: parameters
/// from 1, columns from 0. Text is always bound with SQLITE_TRANSIENT (SQLite copies it),
/// because a Swift string's bytes do not outlive the call.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: OpaquePointer

    init(_ statement: OpaquePointer, connection: OpaquePointer) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard var value else { return try check(sqlite3_bind_null(statement, index)) }
        // withUTF8 passes the exact byte count: no strlen, and an embedded NUL cannot cut the text.
        let rc = value.withUTF8 { bytes -> Int32 in
            // An empty buffer may have no address, and a NULL pointer would bind SQL NULL.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(statement, index, "", 0, mk_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(statement, index, $0, Int32(bytes.count), mk_sqlite_transient())
            }
        }
        try check(rc)
    }

    func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try check(sqlite3_bind_null(statement, index)) }
        try check(sqlite3_bind_int64(statement, index, value))
    }

    func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        try bind(value.map(Int64.init), at: index)
    }

    func bind(_ value: Double?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try check(sqlite3_bind_null(statement, index)) }
        try check(sqlite3_bind_double(statement, index, value))
    }

    /// Advances one row: true while there is a row to read, false when done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(connection: connection)
        }
    }

    /// Ready to run again with new parameters.
    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private func check(_ rc: Int32) throws(SQLiteError) {
        if rc != SQLITE_OK { throw SQLiteError(connection: connection) }
    }
}
