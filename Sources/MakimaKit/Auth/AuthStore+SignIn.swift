import Foundation

/// What the onboarding and Settings panes (and `makima-tui login`) call. Every failure is a
/// `SignInProblem`: words to show, and the step to stay on.
///
/// - Onboarding step 1: `checkServer(typed)`; on `.insecureHTTPNeedsConfirmation`, ask, then
///   call again with `allowInsecureHTTP: true`.
/// - Step 2 (also the in-place re-entry after a 401): `APIKey.typingProblem` and
///   `APIKey.displayMask` while typing, then `signIn(server:key:)`; on success the key and the
///   profile are stored (0600) and `state` is `.authenticated`.
/// - Settings: `updateBaseURL(_:)` (edit and revalidate), `switchServer(to:)` (another stored
///   profile, `config.profiles`), `rotateAPIKey()`, `signOut()`, `saveTheme(_:)`,
///   `saveNotificationPreferences(_:)`.
extension AuthStore {
    public nonisolated(nonsending) func checkServer(_ typed: String, allowInsecureHTTP: Bool = false)
        async throws(SignInProblem) -> SignInProbe.Server
    {
        try await SignInProbe.checkServer(typed, allowInsecureHTTP: allowInsecureHTTP, transport: transport)
    }

    /// Checks `key` against `server` with an authenticated call and, only if the server takes
    /// it, stores both. A 401 is told apart: revoked, or a key the server does not know.
    @discardableResult
    public nonisolated(nonsending) func signIn(
        server: String, key typed: String, allowInsecureHTTP: Bool = false, name: String? = nil
    ) async throws(SignInProblem) -> ServerProfile {
        if let why = APIKey.validationError(typed) { throw .invalidKey(why) }
        guard let key = APIKey(typed) else { throw .invalidKey("not a key") }
        let host =
            (try? ServerURL.normalizeTyped(server, allowInsecureHTTP: true)).map(SignInProbe.displayHost) ?? server
        do {
            return try await configure(server: server, key: key, label: name, allowInsecureHTTP: allowInsecureHTTP)
        } catch let error as APIError where error.isUnauthorized {
            var revoked = false
            if let probe = try? ServerProfile(server: server, allowInsecureHTTP: allowInsecureHTTP) {
                revoked = await SignInProbe.isRevoked(key, profile: probe, transport: transport)
            }
            throw SignInProblem.classify(error, host: host, revoked: revoked)
        } catch {
            throw SignInProblem.classify(error, host: host)
        }
    }

    /// `rotateKey()` with its failure in words. The new key is stored only once the server has
    /// accepted it; on any failure the old key stays in use and on disk.
    @discardableResult
    public nonisolated(nonsending) func rotateAPIKey() async throws(SignInProblem) -> APIKey {
        let host = profile.map(\.displayHost) ?? "the server"
        do { return try await rotateKey() } catch { throw SignInProblem.classify(error, host: host) }
    }

    /// `switchProfile(to:)` with its failure in words.
    @discardableResult
    public nonisolated(nonsending) func switchServer(to id: UUID) async throws(SignInProblem) -> ServerProfile {
        let host = config.profiles.first { $0.id == id }?.displayHost ?? "the server"
        do { return try await switchProfile(to: id) } catch { throw SignInProblem.classify(error, host: host) }
    }

    /// Saves the theme (a built-in name or a theme file path) in the config file.
    public func saveTheme(_ theme: String?) throws(SignInProblem) {
        do { try updateSettings { $0["theme"] = theme.map(JSONValue.string) } } catch {
            throw SignInProblem.classify(error, host: "")
        }
    }

    /// Saves whether the dashboard uses the mouse.
    public func saveMouse(_ on: Bool) throws(SignInProblem) {
        do { try updateSettings { $0["mouse"] = .bool(on) } } catch { throw SignInProblem.classify(error, host: "") }
    }

    public var notificationPreferences: NotificationPreferences { config.notificationPreferences }

    public func saveNotificationPreferences(_ preferences: NotificationPreferences) throws(SignInProblem) {
        do { try updateSettings { $0["notifications"] = preferences.json } } catch {
            throw SignInProblem.classify(error, host: "")
        }
    }
}
