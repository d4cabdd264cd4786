import Foundation

/// Damage a file's own checks cannot see: pages overwritten in place, its size and
/// modification time kept as they were.
public enum FileDamage {
    /// Overwrites each page (numbered from 1, as SQLite numbers them; page 1, the header and
    /// schema, is left alone) with 0xA5 bytes. Returns false when the times could not be kept.
    @discardableResult
    public static func overwrite(pages: [Int64], pageSize: Int = 4_096, of path: String) throws -> Bool {
        var before = stat()
        guard stat(path, &before) == 0, let handle = FileHandle(forUpdatingAtPath: path) else {
            throw CocoaError(.fileNoSuchFile)
        }
        for page in pages where page > 1 {
            try handle.seek(toOffset: UInt64(page - 1) * UInt64(pageSize))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        }
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        return utimensat(AT_FDCWD, path, &times, 0) == 0
    }
}
