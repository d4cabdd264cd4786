import Foundation
import MakimaKit

/// A server and key the server accepted: what the controller needs to (re)start the engine.
public struct SignedIn: Sendable {
    public var client: APIClient
    public var key: APIKey
    /// Shown in Settings: "stored", "from MAKIMA_API_KEY".
    public var keySource: String
    /// Names the server's cache (`CacheLocation.profileKey`): each server keeps its own.
    public var cacheKey: String

    public init(client: APIClient, key: APIKey, keySource: String, cacheKey: String) {
        self.client = client
        self.key = key
        self.keySource = keySource
        self.cacheKey = cacheKey
    }

    public init(client: APIClient, key: APIKey, keySource: String) {
        self.init(
            client: client, key: key, keySource: keySource,
            cacheKey: CacheLocation.profileKey(serverURL: client.profile.baseURL.absoluteString))
    }
}

/// The network and disk side of signing in, as the controller asks for it. Every call returns
/// at once and answers later through `done`, on any thread (the controller posts the answer
/// on the UI bus): the UI thread never waits for the network. `AuthSignInService` is the
/// real one (an `AuthStore`); controller tests script the answers.
public protocol SignInService: AnyObject, Sendable {
    /// The server prefilled in step 1 (the stored one, else `ServerURL.defaultServer`).
    var suggestedServer: String { get }
    /// Step 1: the typed server answers the health check.
    func checkServer(
        _ typed: String, allowInsecureHTTP: Bool, done: @escaping @Sendable (Result<String, SignInProblem>) -> Void)
    /// Step 2 (and a re-entered key): the key works with that server; then both are stored (0600).
    func signIn(
        server: String, key: String, allowInsecureHTTP: Bool,
        done: @escaping @Sendable (Result<SignedIn, SignInProblem>) -> Void)
    /// Settings › server: the key stored earlier for that server, once the server accepted it
    /// again (the server becomes the active one); nil when no key is stored for it.
    /// The stored profiles' names (`:profile` completes them).
    var profileNames: [String] { get }

    /// Switches to the stored profile called `name` (nil: it has no key stored).
    func storedSignIn(
        profileNamed name: String, done: @escaping @Sendable (Result<SignedIn, SignInProblem>?) -> Void)

    func storedSignIn(
        forServer url: String, done: @escaping @Sendable (Result<SignedIn, SignInProblem>?) -> Void)
    /// `r` after a refused key: whether the server takes the key again.
    func verify(_ session: SignedIn, done: @escaping @Sendable (SignInProblem?) -> Void)
    /// Settings › rotate key: the new key, stored only once the server confirmed it.
    func rotateKey(done: @escaping @Sendable (Result<SignedIn, SignInProblem>) -> Void)
    /// Settings › sign out: the stored key and profile removed (local only).
    func signOut() throws(SignInProblem)
    /// The config file (Settings › About).
    var configPath: String { get }
    /// Settings › theme and notifications, saved in the config file.
    func saveTheme(_ theme: String) throws(SignInProblem)
    func saveNotifications(_ preferences: NotificationPreferences) throws(SignInProblem)
    /// Settings › mouse, saved in the config file.
    func saveMouse(_ on: Bool) throws(SignInProblem)
}

extension SignInService {
    public var profileNames: [String] { [] }

    public func storedSignIn(
        profileNamed name: String, done: @escaping @Sendable (Result<SignedIn, SignInProblem>?) -> Void
    ) { done(nil) }
}
