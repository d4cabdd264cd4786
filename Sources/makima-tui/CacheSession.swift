import Foundation
import MakimaKit

/// The cache of the server a command talks to. Keyed by the server URL, so a different server
/// never sees another's data, whatever profile points at it.
enum CacheSession {
    static func open(for profile: ServerProfile) -> (store: CacheStore?, notice: String?) {
        do {
            let result = try CacheStore.open(profileKey: CacheLocation.profileKey(serverURL: profile.baseURL.absoluteString))
            return (result.store, result.notice)
        } catch {
            return (nil, "cache unavailable (\(error)); running without it")
        }
    }
}
