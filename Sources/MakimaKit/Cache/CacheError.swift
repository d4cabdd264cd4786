/// What can go wrong with the cache, in terms a caller can act on. The messages are meant to be
/// shown to the user as they are.
public enum CacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The disk (or the database's size limit) is full. The write was rolled back whole; what was
    /// cached before is still readable.
    case diskFull(String)
    /// The database is damaged. On the next start it is moved aside and replaced.
    case corrupt(String)
    /// The cache file or its directory cannot be opened or created.
    case cantOpen(path: String, reason: String)
    /// Another process held the database locked for longer than the busy timeout.
    case busy(String)
    /// The store was closed.
    case closed
    /// An item could not be encoded for storage.
    case encoding(String)
    /// Any other SQLite failure: the extended result code and SQLite's message.
    case sqlite(code: Int32, message: String)

    public var description: String {
        switch self {
        case .diskFull(let m): "offline cache: disk full, new data is not being cached (\(m))"
        case .corrupt(let m): "offline cache: database is damaged (\(m))"
        case .cantOpen(let path, let reason): "offline cache: cannot open \(path) (\(reason))"
        case .busy(let m): "offline cache: database is locked by another process (\(m))"
        case .closed: "offline cache: closed"
        case .encoding(let m): "offline cache: cannot encode an item (\(m))"
        case .sqlite(let code, let m): "offline cache: SQLite error \(code) (\(m))"
        }
    }

    static func from(_ error: any Error, path: String) -> CacheError {
        switch error {
        case let e as CacheError: return e
        case let e as SQLiteError:
            switch e.kind {
            case .diskFull: return .diskFull(e.message)
            case .corrupt: return .corrupt(e.message)
            case .cantOpen, .readOnly: return .cantOpen(path: path, reason: e.message)
            case .busy: return .busy(e.message)
            case .other: return .sqlite(code: e.code, message: e.message)
            }
        default: return .encoding(String(describing: error))
        }
    }
}
