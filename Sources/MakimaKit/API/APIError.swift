import Foundation

/// Every way an API call can fail. Descriptions are one line, safe to show and log: they never
/// hold the API key (the client scrubs it from anything the server echoes) and every byte from
/// the server in them has been cleaned of control sequences.
public enum APIError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// 401 or 403: the key is missing, wrong, revoked or lacks permission.
    case unauthorized(status: Int)
    case notFound
    /// Any other non-2xx answer; `message` from `{"error": "…"}` or the cleaned body, truncated.
    case http(status: Int, message: String)
    /// 429 or 503 with a `Retry-After`: the server asked to be left alone for `retryAfter` seconds.
    case throttled(status: Int, retryAfter: TimeInterval, message: String)
    /// The exchange did not complete: DNS, connect, TLS, timeout (libcurl's words).
    case transport(String)
    /// The answer was not the JSON we expect; the message names the field.
    case decoding(String)
    case insecureHTTPRefused(host: String)
    case responseTooLarge(limit: Int)
    /// The request itself was refused before sending (e.g. a header holding CR/LF).
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .unauthorized(let status): return "unauthorized (HTTP \(status)): the server rejected the API key"
        case .notFound: return "not found (HTTP 404)"
        case .http(let status, _) where (300...399).contains(status):
            // Never followed (CURLOPT_FOLLOWLOCATION off): the key goes to the configured server only.
            return "the server answered with a redirect (HTTP \(status)), which is not followed: "
                + "the key is sent only to the server configured; set the profile's server to where it moved"
        case .http(let status, let message):
            return message.isEmpty ? "server error (HTTP \(status))" : "server error (HTTP \(status)): \(message)"
        case .throttled(let status, let after, let message):
            let wait = "server busy (HTTP \(status)), asks to retry in \(Int(after.rounded(.up))) s"
            return message.isEmpty ? wait : "\(wait): \(message)"
        case .transport(let reason): return "cannot reach server: \(reason)"
        case .decoding(let message): return "unexpected answer from server: \(message)"
        case .insecureHTTPRefused(let host): return ServerURLError.insecureHTTPRefused(host: host).description
        case .responseTooLarge(let limit):
            return "answer from server is larger than the \(limit / (1024 * 1024)) MiB limit"
        case .invalidRequest(let why): return "request refused before sending: \(why)"
        }
    }

    public var errorDescription: String? { description }

    public var isUnauthorized: Bool { if case .unauthorized = self { return true } else { return false } }

    /// The wait the server asked for (`Retry-After` on a 429 or 503), if any.
    public var retryAfter: TimeInterval? {
        if case .throttled(_, let after, _) = self { return after } else { return nil }
    }

    /// Longest server message kept in `.http`.
    public static let maxMessageLength = 200

    /// The message for `.http`: the JSON `error` (or `message`) field if there is one, else the
    /// body, cleaned, the key masked (`SecretMask`: invisible characters removed first),
    /// whitespace collapsed to one line, and only then truncated, so no cut copy of the key
    /// survives.
    public static func serverMessage(from body: Data, masking key: APIKey? = nil) -> String {
        var text: String?
        if let obj = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            for key in ["error", "message", "detail"] {
                if let s = obj[key] as? String {
                    text = s
                    break
                }
                if let nested = obj[key] as? [String: Any], let s = nested["message"] as? String {
                    text = s
                    break
                }
            }
        }
        let raw = text ?? String(decoding: body.prefix(4096), as: UTF8.self)
        var cleaned = UntrustedText.clean(raw)
        if let key { cleaned = SecretMask.mask(cleaned, secret: key.secret, with: key.masked) }
        let oneLine = cleaned.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if oneLine.count <= maxMessageLength { return oneLine }
        return String(oneLine.prefix(maxMessageLength - 1)) + "…"
    }

    /// A `DecodingError` in words that name the field, e.g. `field 'items[2].status': …`.
    /// Server text in it is cleaned and `key` masked before it is cut to length.
    public static func describe(_ error: Error, decoding type: Any.Type, masking key: APIKey? = nil) -> APIError {
        func clip(_ s: String) -> String { APIError.clip(s, masking: key) }
        guard let e = error as? DecodingError else { return .decoding("\(type): \(error)") }
        func path(_ p: [CodingKey]) -> String {
            var s = ""
            for k in p {
                if let i = k.intValue { s += "[\(i)]" } else { s += s.isEmpty ? k.stringValue : "." + k.stringValue }
            }
            return s.isEmpty ? "(top level)" : s
        }
        let typeName = String(describing: type)
        switch e {
        case .keyNotFound(let key, let ctx):
            return .decoding("\(typeName): missing field '\(path(ctx.codingPath + [key]))'")
        case .typeMismatch(let expected, let ctx):
            return .decoding(
                "\(typeName): field '\(path(ctx.codingPath))' has the wrong type (expected \(expected)): \(clip(ctx.debugDescription))"
            )
        case .valueNotFound(let expected, let ctx):
            return .decoding("\(typeName): field '\(path(ctx.codingPath))' is null (expected \(expected))")
        case .dataCorrupted(let ctx):
            if ctx.codingPath.isEmpty { return .decoding("\(typeName): the body is not valid JSON") }
            return .decoding("\(typeName): field '\(path(ctx.codingPath))': \(clip(ctx.debugDescription))")
        @unknown default:
            return .decoding("\(typeName): \(clip(String(describing: e)))")
        }
    }

    private static func clip(_ s: String, masking key: APIKey?) -> String {
        var c = UntrustedText.clean(s)
        if let key { c = SecretMask.mask(c, secret: key.secret, with: key.masked) }
        return c.count <= 160 ? c : String(c.prefix(159)) + "…"
    }

    /// Replaces every copy of the key (a server might echo it back), whole, cut or split by
    /// invisible characters, with its mask (`SecretMask`).
    public func redacting(_ key: APIKey) -> APIError {
        func r(_ s: String) -> String { SecretMask.mask(s, secret: key.secret, with: key.masked) }
        switch self {
        case .http(let status, let message): return .http(status: status, message: r(message))
        case .throttled(let status, let after, let message):
            return .throttled(status: status, retryAfter: after, message: r(message))
        case .transport(let reason): return .transport(r(reason))
        case .decoding(let message): return .decoding(r(message))
        case .invalidRequest(let why): return .invalidRequest(r(why))
        default: return self
        }
    }
}
