import Foundation

/// `makima://task/{id}`, `makima://directive/{id}`, `makima://contract/{id}` and
/// `makima://listen/{id}` (a listen session's transcript): where a notification (or the
/// command line) sends the operator.
public enum DeepLink: Sendable, Hashable, CustomStringConvertible {
    case task(String)
    case directive(String)
    case contract(String)
    case listen(String)

    public init?(_ raw: String) {
        let s = raw.trimmingCharacters(in: .whitespaces)
        let prefix = "makima://"
        guard s.lowercased().hasPrefix(prefix) else { return nil }
        let parts = s.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let id = String(parts[1])
        guard ResourceID.isValid(id) else { return nil }
        switch parts[0].lowercased() {
        case "task": self = .task(id)
        case "directive": self = .directive(id)
        case "contract": self = .contract(id)
        case "listen": self = .listen(id)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .task(let id): return "makima://task/\(id)"
        case .directive(let id): return "makima://directive/\(id)"
        case .contract(let id): return "makima://contract/\(id)"
        case .listen(let id): return "makima://listen/\(id)"
        }
    }
}
