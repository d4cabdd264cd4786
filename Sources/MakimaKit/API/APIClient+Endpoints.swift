import Foundation

/// Typed endpoints (docs/api.md). Lists come back as `ListEnvelope`: `items` plus the number
/// of elements that failed to decode and were skipped (`skipped`).
extension APIClient {
    public func daemons() async throws -> ListEnvelope<Daemon> {
        try await get(ListEnvelope<Daemon>.self, ["mesh", "daemons"])
    }

    public func tasks(status: TaskStatus? = nil, contractID: String? = nil) async throws -> ListEnvelope<MeshTask> {
        try await get(ListEnvelope<MeshTask>.self, ["mesh", "tasks"], query: [("status", status?.rawValue), ("contract_id", contractID)])
    }

    public func task(id: String) async throws -> MeshTask {
        try await get(MeshTask.self, ["mesh", "tasks", id])
    }

    /// Events after `afterSeq` (exclusive), at most `limit`; `nextAfterSeq` continues the paging.
    public func taskOutput(id: String, afterSeq: Int? = nil, limit: Int? = nil) async throws -> TaskOutputPage {
        try await get(TaskOutputPage.self, ["mesh", "tasks", id, "output"],
                      query: [("after_seq", afterSeq.map(String.init)), ("limit", limit.map(String.init))])
    }

    public func contracts(status: ContractStatus? = nil) async throws -> ListEnvelope<Contract> {
        try await get(ListEnvelope<Contract>.self, ["contracts"], query: [("status", status?.rawValue)])
    }

    public func contract(id: String) async throws -> Contract {
        try await get(Contract.self, ["contracts", id])
    }

    /// `pending: true` asks for directives waiting on a supervisor question only.
    public func directives(pending: Bool? = nil) async throws -> ListEnvelope<Directive> {
        try await get(ListEnvelope<Directive>.self, ["directives"], query: [("pending", pending.map { $0 ? "true" : "false" })])
    }

    public func listenSessions(limit: Int? = nil) async throws -> ListEnvelope<ListenSession> {
        try await get(ListEnvelope<ListenSession>.self, ["listen", "sessions"], query: [("limit", limit.map(String.init))])
    }

    public func listenSession(id: String) async throws -> ListenSession {
        try await get(ListenSession.self, ["listen", "sessions", id])
    }

    public func apiKeys() async throws -> ListEnvelope<APIKeyInfo> {
        try await get(ListEnvelope<APIKeyInfo>.self, ["auth", "api-keys"])
    }

    /// `POST /auth/api-keys/refresh`: the server issues a new key. Store it with
    /// `AuthStore.rotateKey()`, which keeps the old key if this fails.
    public func rotateKey() async throws -> RotatedKey {
        let response = try await send(.post, ["auth", "api-keys", "refresh"])
        return try decode(RotatedKey.self, from: response.body)
    }

    /// `DELETE /auth/api-keys`: revokes the key on the server (204).
    public func revokeKey() async throws {
        _ = try await send(.delete, ["auth", "api-keys"])
    }

    /// `GET /api/v1/health`, falling back to `GET /health` at the server root on 404.
    public func health() async throws -> HealthStatus {
        do {
            return try await get(HealthStatus.self, ["health"])
        } catch APIError.notFound {
            return try await get(HealthStatus.self, ["health"], base: profile.baseURL)
        }
    }
}
