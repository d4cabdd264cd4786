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
}
