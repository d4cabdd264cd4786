import CSQLiteShim
import Foundation

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

    /// Binds bytes as a BLOB (copied by SQLite); an empty array binds an empty blob, not NULL.
    func bind(blob: [UInt8], at index: Int32) throws(SQLiteError) {
        let rc = blob.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress, !raw.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return sqlite3_bind_blob(statement, index, base, Int32(raw.count), mk_sqlite_transient())
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

    /// Runs a statement that returns no rows (a keyed DELETE, an INSERT) once with `values`
    /// bound to ?1, ?2…, and readies it for the next values.
    func run(_ values: any SQLiteValue...) throws(SQLiteError) {
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value.sqliteParameter {
            case .text(let text): try bind(text, at: index)
            case .integer(let number): try bind(number, at: index)
            case .real(let number): try bind(number, at: index)
            }
        }
        try step()
        reset()
    }

    /// Every row's `value` keyed by the text of its column 0; rows missing either are skipped.
    func keyedByText<Value>(_ value: (SQLiteStatement) -> Value?) throws(SQLiteError) -> [String: Value] {
        var values: [String: Value] = [:]
        while try step() {
            if let key = text(0), let v = value(self) { values[key] = v }
        }
        return values
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    // A cache file is read back as untrusted input: anything can have written any value of
    // any type into any column. The readers below never trap and never hand out a value a
    // caller's arithmetic could overflow on: a value of the wrong type, out of its range or
    // NULL reads as nil, and the caller skips the row or uses a safe value.

    /// The column as a whole number within `range`: an INTEGER, or a REAL holding a whole
    /// number; nil for NULL, text, blobs, fractions, NaN and anything outside `range`.
    func integer(_ column: Int32, in range: ClosedRange<Int64>) -> Int64? {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            let value = sqlite3_column_int64(statement, column)
            return range.contains(value) ? value : nil
        case SQLITE_FLOAT:
            // Int64(exactly:) is nil for a fraction, NaN, an infinity or 2^63 and beyond.
            guard let value = Int64(exactly: sqlite3_column_double(statement, column)) else { return nil }
            return range.contains(value) ? value : nil
        default:
            return nil
        }
    }

    /// The most a count kept in the cache (events in a minute, tasks in an hour) may say:
    /// far above anything real, and low enough that summing a year of them cannot overflow.
    static let maxCount: Int64 = 1 << 31

    /// A count kept in the cache: 0 when it is not a whole number in `0...maxCount`.
    func count(_ column: Int32) -> Int { Int(integer(column, in: 0...Self.maxCount) ?? 0) }

    /// A task event's seq: nil unless a whole number the sequencer accepts (`0...maxSeq`).
    func seq(_ column: Int32) -> Int? {
        integer(column, in: 0...Int64(TaskEventSequencer.maxSeq)).map { Int($0) }
    }

    /// Seconds since 1970 that make a date a calendar can show (years 1 to 9999).
    static let dateSeconds: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// The column as a time (seconds since 1970, INTEGER or REAL); nil for NULL, text, NaN,
    /// infinities and times outside `dateSeconds`.
    func date(_ column: Int32) -> Date? {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER, SQLITE_FLOAT:
            let seconds = sqlite3_column_double(statement, column)
            return Self.dateSeconds.contains(seconds) ? Date(timeIntervalSince1970: seconds) : nil
        default:
            return nil
        }
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes as they are stored (a BLOB's, or a TEXT's UTF-8, unchecked); empty
    /// for NULL. Numbers read as their text, as SQLite converts them.
    func bytes(_ column: Int32) -> [UInt8] {
        guard let base = sqlite3_column_blob(statement, column) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, column))
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    private func check(_ rc: Int32) throws(SQLiteError) {
        if rc != SQLITE_OK { throw SQLiteError(connection: connection) }
    }
}

/// A value a statement's parameter takes (what `SQLiteStatement.run` binds), as SQLite stores it.
protocol SQLiteValue {
    var sqliteParameter: SQLiteParameter { get }
}

enum SQLiteParameter {
    case text(String)
    case integer(Int64)
    case real(Double)
}

extension String: SQLiteValue { var sqliteParameter: SQLiteParameter { .text(self) } }
extension Int: SQLiteValue { var sqliteParameter: SQLiteParameter { .integer(Int64(self)) } }
extension Int64: SQLiteValue { var sqliteParameter: SQLiteParameter { .integer(self) } }
extension Double: SQLiteValue { var sqliteParameter: SQLiteParameter { .real(self) } }
