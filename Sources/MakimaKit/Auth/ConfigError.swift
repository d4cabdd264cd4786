/// Problems with the local configuration and credential files. Messages name the file and say
/// what to do; they never hold a key.
public enum ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case insecurePermissions(path: String, mode: UInt32)
    /// A file or directory the key's use depends on that another user could change (and so
    /// name the server the stored key is sent to); `fix` is the command that makes it ours alone.
    case writableByOthers(path: String, mode: UInt32, fix: String)
    case invalidStoredKey(path: String, reason: String)
    case invalidEnvironmentKey(reason: String)
    case notConfigured
    case noKeyForServer(String)
    case keyFromEnvironment
    case unknownProfile(String, known: [String])
    case invalidProfileName(String, reason: String)
    /// `--profile` (or MAKIMA_PROFILE) and `--server` both say which server to use.
    case profileAndServer

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .writeFailed(let path, let reason): return "cannot write \(path): \(reason)"
        case .insecurePermissions(let path, let mode):
            return "\(path) is readable by other users (mode \(String(mode, radix: 8))); run: chmod 600 '\(path)'"
        case .writableByOthers(let path, let mode, let fix):
            return
                "\(path) can be changed by other users (mode \(String(mode, radix: 8))), so it cannot say where the key goes; run: \(fix)"
        case .invalidStoredKey(let path, let reason):
            return "the key stored in \(path) is not valid (\(reason)); log in again"
        case .invalidEnvironmentKey(let reason): return "MAKIMA_API_KEY is not a valid key: \(reason)"
        case .notConfigured: return "not configured: run `makima-tui login --server URL`"
        case .noKeyForServer(let server):
            return "no API key stored for \(server): run `makima-tui login --server \(server)` or set MAKIMA_API_KEY"
        case .keyFromEnvironment: return "the key comes from MAKIMA_API_KEY; change it where that variable is set"
        case .unknownProfile(let name, let known):
            let list = known.isEmpty ? "none is stored" : "stored: " + known.joined(separator: ", ")
            return "no profile named '\(name)' (\(list)); add one with `makima-tui login --name \(name) --server URL`"
        case .invalidProfileName(let name, let reason): return "'\(name)' cannot name a profile: \(reason)"
        case .profileAndServer: return "--profile and --server both choose the server; give one of them"
        }
    }
}
