import Foundation

/// The two checks of onboarding and `login`, before anything is stored:
/// 1. `checkServer`: the typed address, normalised (`ServerURL.normalizeTyped`), answers
///    `GET /api/v1/health` (no key sent) with Makima's `{"status": …}`.
/// 2. `isRevoked`: after a 401, whether the server said the key was revoked (Makima answers
///    `{"error": "api key revoked"}` for a key that existed and was revoked, `unauthorized` for
///    one it never knew).
public enum SignInProbe {
    public struct Server: Sendable, Equatable {
        /// The canonical base URL to sign in to.
        public var url: URL
        /// The server's version, when it says.
        public var version: String?
    }

    public static func checkServer(
        _ typed: String, allowInsecureHTTP: Bool = false, transport: HTTPTransport = HTTPTransport()
    ) async throws(SignInProblem) -> Server {
        let url: URL
        do { url = try ServerURL.normalizeTyped(typed, allowInsecureHTTP: allowInsecureHTTP) } catch {
            throw SignInProblem.classify(error, host: typed)
        }
        let host = displayHost(url)
        let health = APIURL.make(base: url, segments: ["api", "v1", "health"], query: [])
        let response: HTTPResponse
        do { response = try await APIClient.run(HTTPRequest(url: health), on: transport) } catch {
            let problem = SignInProblem.classify(error, host: host)
            // A bare `host:port` is tried as https; a TLS handshake answered by plain HTTP
            // (OpenSSL's "wrong version number") is worth one plain request to say so.
            if case .unreachable(_, let reason) = problem, !typed.contains("://"), reason.lowercased().contains("ssl"),
                await answersPlainHTTP(health, transport: transport)
            {
                throw .plainHTTPOnly(host: host, loopback: ServerURL.isLoopback(host: url.host ?? ""))
            }
            throw problem
        }
        guard response.isSuccess else {
            throw .notMakimaServer(host: host, reason: "GET /api/v1/health answered HTTP \(response.status)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let status = object["status"] as? String
        else {
            throw .notMakimaServer(host: host, reason: "GET /api/v1/health did not answer with a health status")
        }
        guard status.lowercased() == "ok" else {
            throw .notMakimaServer(
                host: host, reason: "the server reports its health as '\(UntrustedText.clean(status).prefix(40))'")
        }
        return Server(
            url: url, version: (object["version"] as? String).map { String(UntrustedText.clean($0).prefix(80)) })
    }

    /// One authenticated request with `key` (`GET /mesh/daemons`); true when the server
    /// refused it saying the key was revoked.
    public static func isRevoked(_ key: APIKey, profile: ServerProfile, transport: HTTPTransport) async -> Bool {
        let url = APIURL.make(base: profile.apiBaseURL, segments: Endpoint.daemons.segments, query: [])
        let request = HTTPRequest(url: url, headers: [("x-makima-api-key", key.secret)])
        guard let response = try? await APIClient.run(request, on: transport), response.status == 401 else {
            return false
        }
        return APIError.serverMessage(from: response.body).lowercased().contains("revoked")
    }

    /// Whether `url` (https) answers at all as `http://` (no key is sent).
    static func answersPlainHTTP(_ url: URL, transport: HTTPTransport) async -> Bool {
        guard var comps = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return false }
        comps.scheme = "http"
        guard let plain = comps.url else { return false }
        return (try? await APIClient.run(HTTPRequest(url: plain), on: transport)) != nil
    }

    static func displayHost(_ url: URL) -> String {
        var s = url.host ?? url.absoluteString
        if let p = url.port { s += ":\(p)" }
        return s
    }
}
