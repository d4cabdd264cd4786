import CCurlShim

/// libcurl's process-wide set-up, done exactly once before any thread makes a handle.
/// Anything in the package that uses curl (HTTP, WebSocket) calls `Curl.initializeOnce()` first.
public enum Curl {
    private static let initialized: Bool = mk_curl_global_init() == CURLE_OK

    @discardableResult
    public static func initializeOnce() -> Bool { initialized }

    /// curl's own words for an error code (a static string, never holds request data).
    static func message(_ code: CURLcode) -> String {
        guard let c = curl_easy_strerror(code) else { return "curl error \(code.rawValue)" }
        return String(cString: c)
    }
}
