/// Where each resource lives (docs/api.md, "Endpoints"): the one list of paths and query
/// parameters, shared by the async calls (`APIClient+Endpoints`) and the sync engine's blocking
/// fetches (`MeshFetcher`). Parameters left nil are not sent.
public struct Endpoint: Sendable {
    public let segments: [String]
    public let query: [(String, String?)]

    init(_ segments: [String], _ query: [(String, String?)] = []) {
        self.segments = segments
        self.query = query
    }

    public static let daemons = Endpoint(["mesh", "daemons"])

    /// `limit` is the page size asked for (the server may answer with fewer and a `next_cursor`).
    public static func tasks(status: TaskStatus?, contractID: String?, limit: Int? = nil) -> Endpoint {
        Endpoint(
            ["mesh", "tasks"],
            [("status", status?.rawValue), ("contract_id", contractID), ("limit", limit.map(String.init))])
    }

    /// The same request for the page that starts at `cursor` (a `next_cursor` the server sent).
    public func page(_ cursor: String) -> Endpoint {
        Endpoint(segments, query.filter { $0.0 != "cursor" } + [("cursor", cursor)])
    }

    public static func task(id: String) -> Endpoint { Endpoint(["mesh", "tasks", id]) }

    public static func taskOutput(id: String, afterSeq: Int?, limit: Int?) -> Endpoint {
        Endpoint(
            ["mesh", "tasks", id, "output"],
            [("after_seq", afterSeq.map(String.init)), ("limit", limit.map(String.init))])
    }

    public static func contracts(status: ContractStatus?) -> Endpoint {
        Endpoint(["contracts"], [("status", status?.rawValue)])
    }

    public static func contract(id: String) -> Endpoint { Endpoint(["contracts", id]) }

    /// `pending: true` asks for directives waiting on a supervisor question only.
    public static func directives(pending: Bool?) -> Endpoint {
        Endpoint(["directives"], [("pending", pending.map { $0 ? "true" : "false" })])
    }

    public static func listenSessions(limit: Int?) -> Endpoint {
        Endpoint(["listen", "sessions"], [("limit", limit.map(String.init))])
    }

    public static func listenSession(id: String) -> Endpoint { Endpoint(["listen", "sessions", id]) }

    public static let apiKeys = Endpoint(["auth", "api-keys"])
    public static let rotateKey = Endpoint(["auth", "api-keys", "refresh"])
    public static let health = Endpoint(["health"])
}
