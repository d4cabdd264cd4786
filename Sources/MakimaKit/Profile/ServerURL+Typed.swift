import Foundation

/// What a person types for a server, in onboarding or `makima-tui login`, before the rules of
/// `ServerURL.normalize` apply: nothing typed means the public server, and a copied API base
/// (`…/api/v1`, with or without a trailing slash) means its server.
extension ServerURL {
    public static let defaultServer = "https://makima.jp"

    public static func normalizeTyped(_ raw: String, allowInsecureHTTP: Bool = false) throws(ServerURLError) -> URL {
        var s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if s.isEmpty { s = defaultServer }
        while s.hasSuffix("/") { s.removeLast() }
        if s.lowercased().hasSuffix("/api/v1") { s.removeLast("/api/v1".count) }
        return try normalize(s, allowInsecureHTTP: allowInsecureHTTP)
    }
}
