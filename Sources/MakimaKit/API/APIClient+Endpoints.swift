import Foundation

/// Typed endpoints (docs/api.md). Lists come back as `ListEnvelope`: `items` plus the number
/// of elements that failed to decode and were skipped (`skipped`).
extension APIClient {
    public func daemons() async throws -> ListEnvelope<Daemon> {
        try await get(ListEnvelope<Daemon>.self, .daemons)
    }

    /// Every page of the list (`ListPager`): `items` holds them all.
    public func tasks(status: TaskStatus? = nil, contractID: String? = nil) async throws -> PagedList<MeshTask> {
        try await list(MeshTask.self, .tasks(status: status, contractID: contractID, limit: ListPaging.pageSize))
    }

    public func task(id: String) async throws -> MeshTask {
        try await get(MeshTask.self, .task(id: id))
    }

    /// Events after `afterSeq` (exclusive), at most `limit`; `nextAfterSeq` continues the paging.
    public func taskOutput(id: String, afterSeq: Int? = nil, limit: Int? = nil) async throws -> TaskOutputPage {
        try await get(TaskOutputPage.self, .taskOutput(id: id, afterSeq: afterSeq, limit: limit))
    }

    public func contracts(status: ContractStatus? = nil) async throws -> ListEnvelope<Contract> {
        try await get(ListEnvelope<Contract>.self, .contracts(status: status))
    }

    public func contract(id: String) async throws -> Contract {
        try await get(Contract.self, .contract(id: id))
    }

    /// `pending: true` asks for directives waiting on a supervisor question only.
    public func directives(pending: Bool? = nil) async throws -> ListEnvelope<Directive> {
        try await get(ListEnvelope<Directive>.self, .directives(pending: pending))
    }

    public func listenSessions(limit: Int? = nil) async throws -> ListEnvelope<ListenSession> {
        try await get(ListEnvelope<ListenSession>.self, .listenSessions(limit: limit))
    }

    public func listenSession(id: String) async throws -> ListenSession {
        try await get(ListenSession.self, .listenSession(id: id))
    }

    public func apiKeys() async throws -> ListEnvelope<APIKeyInfo> {
        try await get(ListEnvelope<APIKeyInfo>.self, .apiKeys)
    }

    /// `POST /auth/api-keys/refresh`: the server issues a new key. Store it with
    /// `AuthStore.rotateKey()`, which keeps the old key if this fails.
    public func rotateKey() async throws -> RotatedKey {
        let response = try await send(.post, Endpoint.rotateKey.segments)
        return try decode(RotatedKey.self, from: response.body)
    }

    /// `DELETE /auth/api-keys`: revokes the key on the server (204).
    public func revokeKey() async throws {
        _ = try await send(.delete, Endpoint.apiKeys.segments)
    }

    /// `GET /api/v1/health`, falling back to `GET /health` at the server root on 404.
    public func health() async throws -> HealthStatus {
        do {
            return try await get(HealthStatus.self, .health)
        } catch APIError.notFound {
            return try await get(HealthStatus.self, .health, base: profile.baseURL)
        }
    }
}
