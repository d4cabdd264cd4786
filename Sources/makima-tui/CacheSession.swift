import Foundation
import MakimaKit

/// The cache of the server a command talks to. The dashboard, `watch` and `status --cached`
/// share it. Keyed by the server URL, not the profile: a profile whose URL is edited never
/// shows the previous server's data, and no purge has to be remembered.
enum CacheSession {
    static func key(for profile: ServerProfile) -> String {
        CacheLocation.profileKey(serverURL: profile.baseURL.absoluteString)
    }

    static func open(for profile: ServerProfile) -> (store: CacheStore?, notice: String?) {
        do {
            let result = try CacheStore.open(profileKey: key(for: profile))
            return (result.store, result.notice)
        } catch {
            return (nil, "cache unavailable (\(error)); running without it")
        }
    }

    /// Runs `body` on the server's cache and closes it; nil without a cache. Any notice is
    /// printed once on stderr. A cache found damaged while `body` read it (`foundDamage`,
    /// whether `body` threw or read around the error) is recovered as the dashboard's next
    /// start would: closed unsealed, opened again (which moves it aside and starts a fresh
    /// one, saying so), and `body` runs once more on the fresh cache.
    static func reading<T>(_ profile: ServerProfile, _ body: (CacheStore) throws -> T) throws -> T? {
        guard let store = openSaying(profile) else { return nil }
        let result = Result { try body(store) }
        store.close()
        guard store.foundDamage else { return try result.get() }
        guard let fresh = openSaying(profile) else { return nil }
        defer { fresh.close() }
        return try body(fresh)
    }

    private static func openSaying(_ profile: ServerProfile) -> CacheStore? {
        let (store, notice) = open(for: profile)
        if let notice { Console.error(notice) }
        return store
    }
}
