import Foundation

/// The endpoints sign-in and key rotation call from async code (docs/api.md); lists and details
/// the dashboard shows are fetched on the sync engine's threads (`MeshFetcher`). Lists come
/// back as `ListEnvelope`: `items` plus the number of elements that failed to decode and were
/// skipped (`skipped`).
extension APIClient {
    public func daemons() async throws -> ListEnvelope<Daemon> {
        try await get(ListEnvelope<Daemon>.self, .daemons)
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
}
