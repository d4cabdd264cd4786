/// Where sign-in stands (the state machine in docs/api.md, "Sign-in states").
public enum AuthState: Equatable, Sendable {
    /// No usable key: show onboarding (prefill the server from `AuthStore.profile` if set).
    case needsOnboarding
    /// A server and key are being checked with `GET /mesh/daemons`.
    case validating
    case authenticated(ServerProfile)
    /// The last attempt failed; the message is safe to show.
    case error(String)
}
