import CSQLiteShim

/// A failed SQLite call: the extended result code and SQLite's own message.
struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The failures the cache treats differently from "something went wrong".
    enum Kind: Equatable {
        case diskFull  // SQLITE_FULL: a write did not fit; nothing was written
        case corrupt  // SQLITE_CORRUPT or SQLITE_NOTADB: the file cannot be trusted
        case cantOpen  // SQLITE_CANTOPEN: the path cannot be opened as a file
        case busy  // SQLITE_BUSY: another connection holds the lock past the timeout
        case readOnly  // SQLITE_READONLY: the file or its directory is not writable
        case other
    }

    let code: Int32
    let message: String

    var primaryCode: Int32 { code & 0xFF }

    var kind: Kind {
        switch primaryCode {
        case SQLITE_FULL: .diskFull
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt
        case SQLITE_CANTOPEN: .cantOpen
        case SQLITE_BUSY: .busy
        case SQLITE_READONLY: .readOnly
        default: .other
        }
    }

    var description: String { "\(message) (sqlite code \(code))" }

    /// The last error on a connection.
    init(connection: OpaquePointer?) {
        if let connection {
            code = sqlite3_extended_errcode(connection)
            message = String(cString: sqlite3_errmsg(connection))
        } else {
            code = SQLITE_CANTOPEN
            message = String(cString: sqlite3_errstr(SQLITE_CANTOPEN))
        }
    }

    init(code: Int32, message: String? = nil) {
        self.code = code
        self.message = message ?? String(cString: sqlite3_errstr(code))
    }
}
