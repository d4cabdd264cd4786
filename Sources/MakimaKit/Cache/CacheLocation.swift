import CSHA1Shim
import Foundation

/// Where a server profile's cache lives:
/// `<$MAKIMA_CACHE_DIR, else $XDG_CACHE_HOME, else ~/.cache>/makima-tui/<profile>/cache.sqlite`.
/// Each profile has its own directory and database, so one server never sees another's data.
public enum CacheLocation {
    public static let fileName = "cache.sqlite"
    /// The name of the root under which every profile's directory is made.
    public static let rootName = "makima-tui"

    /// The root under which every profile's directory is made.
    public static func baseDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let dir = environment["MAKIMA_CACHE_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir, isDirectory: true).appendingPathComponent(rootName, isDirectory: true)
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(rootName, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent(rootName, isDirectory: true)
    }

    /// The database file of one profile. `profileKey` is a credential id or
    /// `profileKey(serverURL:)`; any key that is not a plain file name is hashed.
    public static func databaseFile(
        profileKey: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        baseDirectory(environment: environment)
            .appendingPathComponent(directoryName(profileKey: profileKey), isDirectory: true)
            .appendingPathComponent(fileName, isDirectory: false)
    }

    /// A stable key for a server URL (scheme and host case and a trailing slash do not matter).
    public static func profileKey(serverURL: String) -> String {
        var normal = serverURL.trimmingCharacters(in: .whitespacesAndNewlines)
        if var parts = URLComponents(string: normal) {
            parts.scheme = parts.scheme?.lowercased()
            parts.host = parts.host?.lowercased()
            while parts.path.hasSuffix("/") { parts.path.removeLast() }
            normal = parts.string ?? normal
        }
        return "url-" + sha1Hex(normal)
    }

    /// The key itself when it is a safe directory name, else a hash of it (no `/`, `..`, or
    /// control characters can reach the file system).
    static func directoryName(profileKey: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let safe =
            !profileKey.isEmpty && profileKey.count <= 64 && !profileKey.hasPrefix(".")
            && profileKey.allSatisfy { allowed.contains($0) }
        return safe ? profileKey : "key-" + sha1Hex(profileKey)
    }

    static func sha1Hex(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: 20)
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { mk_sha1($0.baseAddress, $0.count, &digest) }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
