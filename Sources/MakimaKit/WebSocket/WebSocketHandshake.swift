import CSHA1Shim
import Foundation

/// Where a WebSocket URL leads: the http(s) URL libcurl connects to (TCP + TLS only) and the
/// pieces of the hand-written Upgrade request.
struct WebSocketTarget: Equatable {
    var curlURL: String
    var hostHeader: String
    var requestTarget: String
    var isSecure: Bool

    init(_ url: URL) throws(WebSocketSetupError) {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = parts.scheme?.lowercased(),
            let host = parts.host, !host.isEmpty
        else { throw .invalidURL("not an absolute URL with a host") }
        switch scheme {
        case "ws", "http": isSecure = false
        case "wss", "https": isSecure = true
        default: throw .invalidURL("scheme must be ws or wss")
        }
        if parts.user != nil || parts.password != nil { throw .invalidURL("credentials in the URL are not allowed") }
        let defaultPort = isSecure ? 443 : 80
        // An IPv6 literal needs its brackets; some Foundations keep them in `host`, some drop them.
        let hostLiteral = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let authority = (parts.port == nil || parts.port == defaultPort) ? hostLiteral : "\(hostLiteral):\(parts.port!)"
        var target = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        if let query = parts.percentEncodedQuery { target += "?" + query }
        guard !target.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            throw .invalidURL("path holds control characters or spaces")
        }
        hostHeader = authority
        requestTarget = target
        curlURL = (isSecure ? "https://" : "http://") + authority + target
    }
}

/// The HTTP/1.1 Upgrade exchange of RFC 6455 section 4, free of I/O so it can be tested alone.
/// The answer-reading part is SPI for the fuzz target (Tests/Fuzz), not public API.
@_spi(Fuzzing) public enum WebSocketHandshake {
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// An answer head longer than this is not a WebSocket server talking.
    @_spi(Fuzzing) public static let maxResponseHeadBytes = 16 * 1024
    /// Headers the connection writes itself; a caller may not override them.
    static let reservedHeaders: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version",
        "sec-websocket-extensions", "content-length", "transfer-encoding",
    ]

    /// 16 random bytes, base64: the nonce the server must hash back.
    static func makeKey() throws(WebSocketSetupError) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard mk_random_bytes(&bytes, 16) == 1 else { throw .system("no random bytes for Sec-WebSocket-Key") }
        return Data(bytes).base64EncodedString()
    }

    @_spi(Fuzzing) public static func acceptValue(forKey key: String) -> String {
        let input = Array((key + acceptGUID).utf8)
        var digest = [UInt8](repeating: 0, count: 20)
        mk_sha1(input, input.count, &digest)
        return Data(digest).base64EncodedString()
    }

    /// Rejects what could split the request: a name that is not an RFC 9110 token, a value
    /// with CR, LF, NUL or other controls (tab allowed), or a header this code sets itself.
    /// The error names the header, never its value (it may be the API key).
    static func validate(headers: [String: String]) throws(WebSocketSetupError) {
        for (name, value) in headers {
            let tokenChars = name.unicodeScalars.allSatisfy { v in
                v.isASCII
                    && (v.properties.isAlphabetic || ("0"..."9").contains(v)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains(v))
            }
            guard !name.isEmpty, tokenChars else {
                throw .invalidHeader(name: UntrustedText.clean(name), why: "name is not a token")
            }
            guard !reservedHeaders.contains(name.lowercased()) else {
                throw .invalidHeader(name: name, why: "set by the WebSocket client itself")
            }
            let clean = value.unicodeScalars.allSatisfy { v in v == "\t" || (v.value >= 0x20 && v.value != 0x7F) }
            guard clean else {
                throw .invalidHeader(name: name, why: "value holds CR, LF or another control character")
            }
        }
    }

    static func request(target: WebSocketTarget, key: String, headers: [String: String]) -> [UInt8] {
        var lines = [
            "GET \(target.requestTarget) HTTP/1.1",
            "Host: \(target.hostHeader)",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
        ]
        // Sorted so the request is the same bytes every time (tests, captures).
        for name in headers.keys.sorted() { lines.append("\(name): \(headers[name]!)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Index just past the `\r\n\r\n` that ends the head, if the buffer holds it.
    @_spi(Fuzzing) public static func endOfHead(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 3..<buffer.count
        where buffer[i] == 0x0A && buffer[i - 1] == 0x0D && buffer[i - 2] == 0x0A && buffer[i - 3] == 0x0D {
            return i + 1
        }
        return nil
    }

    @_spi(Fuzzing) public struct Response: Equatable {
        public var status: Int
        /// Lower-cased names; repeated headers joined with ", ".
        public var headers: [String: String]
    }

    @_spi(Fuzzing) public static func parse(head: ArraySlice<UInt8>) -> Response? {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        guard !lines.isEmpty else { return nil }
        let statusParts = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            return nil
        }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return Response(status: status, headers: headers)
    }

    /// Why the answer does not open a WebSocket, as a close reason; nil when it does.
    @_spi(Fuzzing) public static func check(_ response: Response, key: String) -> WebSocketCloseReason? {
        switch response.status {
        case 101: break
        case 401, 403: return .unauthorized(status: response.status)
        case 429, 503:
            // As for REST (`APIClient.error(for:)`): a readable Retry-After is obeyed, any other is ignored.
            guard let after = RetryAfter.seconds(response.headers["retry-after"]) else {
                return .handshake(status: response.status)
            }
            return .throttled(status: response.status, retryAfter: after)
        default: return .handshake(status: response.status)
        }
        func hasToken(_ header: String, _ token: String) -> Bool {
            (response.headers[header] ?? "").lowercased().split(separator: ",")
                .contains { $0.trimmingCharacters(in: .whitespaces) == token }
        }
        guard hasToken("upgrade", "websocket") else { return .protocolError("101 answer without Upgrade: websocket") }
        guard hasToken("connection", "upgrade") else { return .protocolError("101 answer without Connection: Upgrade") }
        guard response.headers["sec-websocket-accept"] == acceptValue(forKey: key) else {
            return .protocolError("Sec-WebSocket-Accept does not match the key sent")
        }
        // Nothing was offered, so nothing may be accepted: frames would be unreadable.
        if let ext = response.headers["sec-websocket-extensions"], !ext.isEmpty {
            return .protocolError("server chose an extension that was not offered")
        }
        return nil
    }
}
