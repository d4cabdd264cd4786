@_spi(Fuzzing) import MakimaKit

/// The answer to the WebSocket upgrade, as `WebSocketOpening` reads it: find the end of the
/// head, parse it, check it against the key sent. Invariants: the end is the first CRLFCRLF;
/// an answer is accepted only as a 101 with the right accept value and no extension; a 401 or
/// 403 (and nothing else) is "unauthorized"; the reason shown for a refusal holds no control.
enum HandshakeFuzz {
    /// The key of RFC 6455's example, so seeds can carry its accept value.
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    static func check(_ bytes: [UInt8]) -> String? {
        let received = Array(bytes.prefix(WebSocketHandshake.maxResponseHeadBytes + 1024))
        let end = WebSocketHandshake.endOfHead(in: received)
        if end != firstBlankLine(received) { return "endOfHead = \(String(describing: end))" }
        guard let end else { return nil }
        guard let response = WebSocketHandshake.parse(head: received[..<end]) else { return nil }
        for name in response.headers.keys where name != name.lowercased() || name.contains(":") {
            return "header name not normalised: \(Invariant.excerpt(name))"
        }
        let verdict = WebSocketHandshake.check(response, key: key)
        switch verdict {
        case nil:
            if response.status != 101 { return "accepted status \(response.status)" }
            if response.headers["sec-websocket-accept"] != WebSocketHandshake.acceptValue(forKey: key) {
                return "accepted a wrong Sec-WebSocket-Accept"
            }
            if let ext = response.headers["sec-websocket-extensions"], !ext.isEmpty {
                return "accepted an extension that was not offered"
            }
        case .unauthorized(let status)?:
            if status != 401 && status != 403 { return "status \(status) taken as unauthorized" }
        case let reason?:
            if response.status == 401 || response.status == 403 {
                return "\(response.status) not taken as unauthorized"
            }
            if let bad = Invariant.firstControl(in: reason.description) { return "refusal reason holds \(bad)" }
        }
        return nil
    }

    /// Index past the first CR LF CR LF, found the plain way.
    private static func firstBlankLine(_ b: [UInt8]) -> Int? {
        guard b.count >= 4 else { return nil }
        for i in 0...(b.count - 4) where b[i] == 13 && b[i + 1] == 10 && b[i + 2] == 13 && b[i + 3] == 10 {
            return i + 4
        }
        return nil
    }
}
