/// Where each resource lives (docs/api.md, "Endpoints"): paths and query parameters for the
/// async calls (`APIClient+Endpoints`). A list's path is its kind's (`ListKind.path`, which the
/// sync engine's fetches use); the ones here add the async calls' parameters. Parameters left
/// nil are not sent.
public struct Endpoint: Sendable {
    public let segments: [String]
    public let query: [(String, String?)]

    init(_ segments: [String], _ query: [(String, String?)] = []) {
        self.segments = segments
        self.query = query
    }

    public static let daemons = Endpoint(ListKinds.daemons.path)

    /// `limit` is the page size asked for (the server may answer with fewer and a `next_cursor`).
    public static func tasks(status: TaskStatus?, contractID: String?, limit: Int? = nil) -> Endpoint {
        Endpoint(
            ListKinds.tasks.path,
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
        Endpoint(ListKinds.contracts.path, [("status", status?.rawValue)])
    }

    public static func contract(id: String) -> Endpoint { Endpoint(["contracts", id]) }

    /// `pending: true` asks for directives waiting on a supervisor question only.
    public static func directives(pending: Bool?) -> Endpoint {
        Endpoint(ListKinds.directives.path, [("pending", pending.map { $0 ? "true" : "false" })])
    }

    public static func listenSessions(limit: Int?) -> Endpoint {
        Endpoint(ListKinds.listenSessions.path, [("limit", limit.map(String.init))])
    }

    public static func listenSession(id: String) -> Endpoint { Endpoint(["listen", "sessions", id]) }

    public static let apiKeys = Endpoint(["auth", "api-keys"])
    public static let rotateKey = Endpoint(["auth", "api-keys", "refresh"])
}
