import Foundation
import Testing

@_spi(Fuzzing) @testable import MakimaKit

@Suite struct WebSocketHandshakeTests {
    @Test func acceptValueMatchesRFC6455Example() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func keysAreSixteenRandomBytes() throws {
        let a = try WebSocketHandshake.makeKey()
        let b = try WebSocketHandshake.makeKey()
        #expect(Data(base64Encoded: a)?.count == 16)
        #expect(a != b)
    }

    @Test func headerValuesWithLineBreaksAreRejectedWithoutEchoingThem() {
        for bad in ["mk_abc\r\nX-Evil: 1", "mk_abc\nX", "mk_abc\rX", "a\u{0}b", "a\u{7F}b"] {
            #expect(
                throws: WebSocketSetupError.invalidHeader(
                    name: "x-makima-api-key", why: "value holds CR, LF or another control character")
            ) {
                try WebSocketHandshake.validate(headers: ["x-makima-api-key": bad])
            }
        }
        do {
            try WebSocketHandshake.validate(headers: ["x-makima-api-key": "mk_secret\r\n"])
        } catch {
            #expect(!error.description.contains("mk_secret"))
        }
    }

    @Test func headerNamesMustBeTokensAndNotOurs() {
        for name in ["Bad Name", "x:y", "", "x\r\ny", "ключ"] {
            #expect(throws: WebSocketSetupError.self) { try WebSocketHandshake.validate(headers: [name: "v"]) }
        }
        for name in ["Host", "upgrade", "Sec-WebSocket-Key", "Connection"] {
            #expect(throws: WebSocketSetupError.self) { try WebSocketHandshake.validate(headers: [name: "v"]) }
        }
        #expect(throws: Never.self) {
            try WebSocketHandshake.validate(headers: [
                "x-makima-api-key": "mk_ok-1.2_3", "User-Agent": "makima-tui/0.1 (linux)\tx",
            ])
        }
    }

    @Test func connectionInitRejectsInjectedHeaders() {
        #expect(throws: WebSocketSetupError.self) {
            try WebSocketConnection(
                url: URL(string: "ws://127.0.0.1:1/")!, headers: ["x-makima-api-key": "mk_a\r\nHost: evil"])
        }
    }

    @Test func targetFromURL() throws {
        let plain = try WebSocketTarget(URL(string: "ws://example.com/api/v1/mesh/tasks/subscribe")!)
        #expect(plain.curlURL == "http://example.com/api/v1/mesh/tasks/subscribe")
        #expect(plain.hostHeader == "example.com")
        #expect(plain.requestTarget == "/api/v1/mesh/tasks/subscribe")
        #expect(!plain.isSecure)
        let secure = try WebSocketTarget(URL(string: "wss://makima.jp:8443/a%20b?x=1&y=%2F")!)
        #expect(secure.curlURL == "https://makima.jp:8443/a%20b?x=1&y=%2F")
        #expect(secure.hostHeader == "makima.jp:8443")
        #expect(secure.requestTarget == "/a%20b?x=1&y=%2F")
        #expect(secure.isSecure)
        #expect(try WebSocketTarget(URL(string: "wss://makima.jp:443")!).hostHeader == "makima.jp")
        #expect(try WebSocketTarget(URL(string: "wss://makima.jp:443")!).requestTarget == "/")
        #expect(try WebSocketTarget(URL(string: "ws://[::1]:9000/x")!).hostHeader == "[::1]:9000")
        #expect(throws: WebSocketSetupError.self) { try WebSocketTarget(URL(string: "ftp://example.com/")!) }
        #expect(throws: WebSocketSetupError.self) { try WebSocketTarget(URL(string: "ws://user:pw@example.com/")!) }
        #expect(throws: WebSocketSetupError.self) { try WebSocketTarget(URL(string: "/relative")!) }
    }

    @Test func requestHasTheUpgradeHeadersAndEndsWithABlankLine() throws {
        let target = try WebSocketTarget(URL(string: "ws://h:81/p?q=1")!)
        let text = String(
            decoding: WebSocketHandshake.request(target: target, key: "KEY==", headers: ["x-b": "2", "x-a": "1"]),
            as: UTF8.self)
        #expect(
            text == "GET /p?q=1 HTTP/1.1\r\nHost: h:81\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: KEY==\r\nSec-WebSocket-Version: 13\r\nx-a: 1\r\nx-b: 2\r\n\r\n")
    }

    @Test func headEndIsFoundAndTheRestIsLeftOver() {
        let bytes = Array("HTTP/1.1 101 OK\r\nA: b\r\n\r\n\u{81}\u{2}hi".utf8)
        let end = WebSocketHandshake.endOfHead(in: bytes)
        #expect(end == 25)
        #expect(Array(bytes[end!...]) == Array("\u{81}\u{2}hi".utf8))
        #expect(WebSocketHandshake.endOfHead(in: Array("HTTP/1.1 101 OK\r\nA: b\r\n".utf8)) == nil)
    }

    func response(_ status: Int, _ headers: [String: String]) -> WebSocketHandshake.Response {
        WebSocketHandshake.Response(status: status, headers: headers)
    }

    @Test func parsesStatusAndHeadersCaseInsensitively() {
        let head = Array(
            "HTTP/1.1 101 Switching Protocols\r\nUPGRADE: WebSocket\r\nConnection: keep-alive, Upgrade\r\nX: 1\r\nX: 2\r\n\r\n"
                .utf8)
        let parsed = WebSocketHandshake.parse(head: head[...])
        #expect(parsed == response(101, ["upgrade": "WebSocket", "connection": "keep-alive, Upgrade", "x": "1, 2"]))
        #expect(WebSocketHandshake.parse(head: Array("garbage\r\n\r\n".utf8)[...]) == nil)
    }

    @Test func checkMapsStatusesAndValidatesTheAnswer() {
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        let good = [
            "upgrade": "websocket", "connection": "Upgrade", "sec-websocket-accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ]
        #expect(WebSocketHandshake.check(response(101, good), key: key) == nil)
        #expect(WebSocketHandshake.check(response(401, [:]), key: key) == .unauthorized(status: 401))
        #expect(WebSocketHandshake.check(response(403, [:]), key: key) == .unauthorized(status: 403))
        #expect(WebSocketHandshake.check(response(200, [:]), key: key) == .handshake(status: 200))
        #expect(WebSocketHandshake.check(response(502, [:]), key: key) == .handshake(status: 502))
        var wrong = good
        wrong["sec-websocket-accept"] = "AAAA"
        #expect(
            WebSocketHandshake.check(response(101, wrong), key: key)
                == .protocolError("Sec-WebSocket-Accept does not match the key sent"))
        var noUpgrade = good
        noUpgrade["upgrade"] = nil
        #expect(WebSocketHandshake.check(response(101, noUpgrade), key: key) != nil)
        var withExtension = good
        withExtension["sec-websocket-extensions"] = "permessage-deflate"
        #expect(WebSocketHandshake.check(response(101, withExtension), key: key) != nil)
    }

    @Test func throttledUpgradesCarryABoundedRetryAfter() {
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        func check(_ status: Int, _ retryAfter: String) -> WebSocketCloseReason? {
            WebSocketHandshake.check(response(status, ["retry-after": retryAfter]), key: key)
        }
        #expect(check(429, "120") == .throttled(status: 429, retryAfter: 120))
        #expect(check(503, " 7 ") == .throttled(status: 503, retryAfter: 7))
        #expect(check(503, "7")?.retryAfter == 7)
        #expect(check(503, "7")?.description == "upgrade refused (503), retry after 7 s")
        // Overflowing and absurd values are cut to a day (the supervisor cuts further).
        #expect(check(429, "99999999999999999999999999") == .throttled(status: 429, retryAfter: RetryAfter.maxSeconds))
        #expect(check(429, "86401") == .throttled(status: 429, retryAfter: RetryAfter.maxSeconds))
        // Negative, fractional, garbage: ignored, a plain refusal with the usual backoff.
        for junk in ["-5", "1.5", "soon", "", "\u{1B}[2J"] {
            #expect(check(503, junk) == .handshake(status: 503), "\(junk)")
            #expect(check(503, junk)?.retryAfter == nil)
        }
        // An HTTP-date in the past is no wait at all.
        #expect(check(503, "Sun, 06 Nov 1994 08:49:37 GMT") == .throttled(status: 503, retryAfter: 0))
        // Only 429 and 503 ask to wait.
        #expect(check(500, "120") == .handshake(status: 500))
        #expect(check(401, "120") == .unauthorized(status: 401))
    }

    @Test func subscribeURLFollowsTheServerScheme() {
        #expect(
            WebSocketSupervisor.subscribeURL(forServer: URL(string: "https://makima.jp")!)?.absoluteString
                == "wss://makima.jp/api/v1/mesh/tasks/subscribe")
        #expect(
            WebSocketSupervisor.subscribeURL(forServer: URL(string: "http://127.0.0.1:8787/")!)?.absoluteString
                == "ws://127.0.0.1:8787/api/v1/mesh/tasks/subscribe")
        #expect(
            WebSocketSupervisor.subscribeURL(forServer: URL(string: "https://h/prefix/")!)?.absoluteString
                == "wss://h/prefix/api/v1/mesh/tasks/subscribe")
        #expect(WebSocketSupervisor.subscribeURL(forServer: URL(string: "ftp://h")!) == nil)
    }

    @Test func statusLabelsForTheMasthead() {
        #expect(ConnectionStatus.idle.label == "IDLE")
        #expect(ConnectionStatus(phase: .connecting).label == "CONNECTING")
        #expect(ConnectionStatus(phase: .online).label == "ONLINE")
        #expect(ConnectionStatus(phase: .offline(nextRetry: nil), unauthorized: true).label == "OFFLINE")
    }
}

@Suite struct WebSocketSecretTests {
    @Test func dumpingAConnectionOrSupervisorDoesNotShowTheKey() throws {
        let secret = "mk_never_print_this_9876"
        let connection = try WebSocketConnection(
            url: URL(string: "ws://127.0.0.1:1/")!, headers: ["x-makima-api-key": secret])
        let supervisor = try WebSocketSupervisor(
            url: URL(string: "ws://127.0.0.1:1/")!, apiKey: APIKey(secret)!,
            onStatus: { _ in }, onOpen: { nil }, onTexts: { _ in })
        for object in [connection, supervisor] as [Any] {
            var dumped = ""
            dump(object, to: &dumped)
            #expect(!dumped.contains(secret))
            #expect(dumped.contains("x-makima-api-key"))
            #expect(!String(reflecting: object).contains(secret))
        }
    }
}
