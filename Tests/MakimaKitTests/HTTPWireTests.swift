import Foundation
import Testing

@testable import MakimaKit

/// The client against a real loopback socket: what goes on the wire and how answers map.
@Suite struct HTTPWireTests {
    static let key = APIKey("mk_wire_test_secret_9f3a")!

    func client(_ server: LoopbackHTTPServer, _ config: HTTPConfiguration = HTTPConfiguration()) throws -> APIClient {
        APIClient(
            profile: try ServerProfile(server: server.baseURL), key: Self.key,
            transport: HTTPTransport(configuration: config))
    }

    /// The sync engine's fetches (`MeshFetcher`), on a thread of their own (they block).
    func fetch<T: Sendable>(_ c: APIClient, _ body: @escaping @Sendable (MeshFetcher) throws -> T) async throws -> T {
        try await onDedicatedThread("wire test") { try body(MeshFetcher(client: c)) }
    }

    func headerLines(_ request: String) -> [String] {
        Array(request.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n").dropFirst())
    }

    @Test func sendsKeyHeaderAcceptAndUserAgentButNoAuthorization() async throws {
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.response(status: 200, body: "[]") }
        let list = try await client(server).daemons()
        #expect(list.items.isEmpty)
        let request = server.firstRequest()
        #expect(request.hasPrefix("GET /api/v1/mesh/daemons HTTP/1.1\r\n"))
        let lines = headerLines(request).map { $0.lowercased() }
        // Booleans only: a failure message must not print the key.
        let sendsKeyHeader = lines.contains("x-makima-api-key: \(Self.key.secret)".lowercased())
        #expect(sendsKeyHeader)
        #expect(lines.contains("accept: application/json"))
        #expect(lines.contains("user-agent: makima-tui/\(MakimaVersion.current)"))
        let sendsAuthorization = lines.contains { $0.hasPrefix("authorization:") }
        #expect(!sendsAuthorization)
    }

    @Test func percentEncodesQueryValuesAndPathSegments() async throws {
        let server = try LoopbackHTTPServer { req in
            req.contains("/output")
                ? LoopbackHTTPServer.response(status: 200, body: #"{"items":[],"next_after_seq":5}"#)
                : LoopbackHTTPServer.response(status: 200, body: "[]")
        }
        let c = try client(server)
        _ = try await fetch(c) { try $0.list(.tasks(status: .running, contractID: "a b&c=d/e#f?")) }
        let page = try await fetch(c) { try $0.outputPage(taskID: "../t 1", afterSeq: 5, limit: 200) }
        #expect(page.nextAfterSeq == 5)
        let lines = server.received.map { $0.components(separatedBy: "\r\n")[0] }
        #expect(
            lines.contains(
                "GET /api/v1/mesh/tasks?status=running&contract_id=a%20b%26c%3Dd%2Fe%23f%3F&limit=1000 HTTP/1.1"))
        #expect(lines.contains("GET /api/v1/mesh/tasks/..%2Ft%201/output?after_seq=5&limit=200 HTTP/1.1"))
        _ = try? await fetch(c) { try $0.task(id: "..") }
        #expect(server.received.last?.hasPrefix("GET /api/v1/mesh/tasks/%2E%2E HTTP/1.1") == true)
    }

    @Test func postUsesItsMethodWithAnEmptyBody() async throws {
        let server = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.response(status: 200, body: #"{"key":"mk_new_key_000000","id":7}"#)
        }
        let c = try client(server)
        let rotated = try await c.rotateKey()
        #expect(rotated.key.secret == "mk_new_key_000000")
        #expect(rotated.id == "7")
        let firstLines = server.received.map { $0.components(separatedBy: "\r\n")[0] }
        #expect(firstLines == ["POST /api/v1/auth/api-keys/refresh HTTP/1.1"])
        let post = headerLines(server.received[0]).map { $0.lowercased() }
        #expect(!post.contains { $0.hasPrefix("content-type:") }, "no form content type for an empty body")
        #expect(post.contains("content-length: 0"))
    }

    @Test(arguments: [
        (401, APIError.unauthorized(status: 401)),
        (403, APIError.unauthorized(status: 403)),
        (404, APIError.notFound),
        (500, APIError.http(status: 500, message: "<html><b>boom</b> broken</html>")),
        (502, APIError.http(status: 502, message: "<html><b>boom</b> broken</html>")),
        (302, APIError.http(status: 302, message: "<html><b>boom</b> broken</html>")),
    ])
    func mapsStatusesWithPlainBodies(status: Int, expected: APIError) async throws {
        let body = "<html>\u{1B}[31m<b>boom</b>\n\n  broken\u{7}</html>"
        let server = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.response(
                status: status, headers: ["Content-Type: text/html", "Location: http://127.0.0.1:1/elsewhere"],
                body: body)
        }
        await #expect(throws: expected) { try await client(server).daemons() }
        #expect(server.received.count == 1, "redirects are not followed")
    }

    @Test func takesTheMessageFromAJSONErrorAndScrubsAnEchoedKey() async throws {
        let server = try LoopbackHTTPServer { req in
            LoopbackHTTPServer.response(
                status: 500, body: #"{"error":"bad key \#(Self.key.secret) for \u001b]0;title\u0007you"}"#)
        }
        do {
            _ = try await client(server).daemons()
            Issue.record("expected an error")
        } catch let error as APIError {
            // Masked as the key's short form, or (when a test running beside this one has
            // registered a key sharing a long piece with it: `ArrivalMask` is per process) as
            // that key's: either way no copy of the secret and no control byte is left.
            guard case .http(500, let message) = error else {
                Issue.record("expected an HTTP 500, got \(error)")
                return
            }
            #expect(message.hasPrefix("bad key mk_") && message.hasSuffix(" for you") && message.contains("…"))
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
            let leaked = error.description.contains(Self.key.secret)
            #expect(!leaked)
        }
    }

    @Test func longServerMessagesAreTruncatedToOneLine() async throws {
        let long = String(repeating: "x ", count: 500)
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.response(status: 503, headers: [], body: long) }
        do {
            _ = try await client(server).daemons()
            Issue.record("expected an error")
        } catch APIError.http(let status, let message) {
            #expect(status == 503)
            #expect(message.count == APIError.maxMessageLength)
            #expect(message.hasSuffix("…"))
            #expect(!message.contains("\n"))
        }
    }

    @Test(arguments: [true, false])
    func refusesResponsesOverTheSizeCap(contentLength: Bool) async throws {
        let body = "[" + String(repeating: "0,", count: 4000) + "0]"
        let server = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.response(status: 200, body: body, contentLength: contentLength)
        }
        let config = HTTPConfiguration(maxResponseBytes: 1024)
        await #expect(throws: APIError.responseTooLarge(limit: 1024)) { try await client(server, config).daemons() }
    }

    @Test func decodingErrorsNameTheField() async throws {
        let server = try LoopbackHTTPServer { req in
            if req.contains("/contracts/") {
                return LoopbackHTTPServer.response(status: 200, body: #"{"id": {"nested": true}, "name": "x"}"#)
            }
            if req.contains("/mesh/tasks") {
                return LoopbackHTTPServer.response(status: 200, body: #"{"items": "not a list"}"#)
            }
            return LoopbackHTTPServer.response(status: 200, body: "{not json")
        }
        let c = try client(server)
        await #expect { try await fetch(c) { try $0.detail(.contract("c1")) } } throws: { e in
            guard case .decoding(let m) = e as? APIError else { return false }
            return m.contains("'id'")
        }
        await #expect { try await fetch(c) { try $0.list(.tasks(status: nil, contractID: nil)) } } throws: { e in
            guard case .decoding(let m) = e as? APIError else { return false }
            return m.contains("'items'")
        }
        await #expect { try await c.daemons() } throws: { e in
            guard case .decoding(let m) = e as? APIError else { return false }
            return m.contains("not valid JSON")
        }
    }

    @Test func unreachableServerIsATransportErrorInCurlsWords() async throws {
        let server = try LoopbackHTTPServer { _ in nil }
        let port = server.port
        server.close()
        let c = APIClient(profile: try ServerProfile(server: "http://127.0.0.1:\(port)"), key: Self.key)
        await #expect { try await c.daemons() } throws: { e in
            guard case .transport(let reason) = e as? APIError else { return false }
            return reason.contains("onnect")
        }
    }

    @Test func totalTimeoutEndsASilentServer() async throws {
        let server = try LoopbackHTTPServer { _ in nil }
        let config = HTTPConfiguration(connectTimeout: .seconds(2), totalTimeout: .milliseconds(300))
        await #expect { try await client(server, config).daemons() } throws: { e in
            guard case .transport(let reason) = e as? APIError else { return false }
            return reason.lowercased().contains("timed out")
        }
    }

    @Test func cancellingTheCallerResumesItWithCancellationError() async throws {
        let server = try LoopbackHTTPServer { _ in nil }
        let c = try client(server)
        let call = Task { try await c.daemons() }
        _ = server.firstRequest()  // the request is in flight and will never be answered
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test(arguments: ["value\r\nX-Injected: 1", "value\nX-Injected: 1", "value\r", "a\0b"])
    func headerValuesWithLineBreaksAreRefusedBeforeSending(value: String) throws {
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.response(status: 200, body: "[]") }
        let request = HTTPRequest(
            url: URL(string: server.baseURL + "/api/v1/mesh/daemons")!, headers: [("x-makima-api-key", value)])
        #expect(throws: APIError.invalidRequest("header x-makima-api-key holds CR, LF or NUL (header injection)")) {
            try HTTPTransport().perform(request)
        }
        // The refusal came before any connection: a later good request is the first one seen.
        _ = try HTTPTransport().perform(HTTPRequest(url: URL(string: server.baseURL + "/ok")!))
        #expect(server.received.count == 1)
        #expect(server.received[0].hasPrefix("GET /ok "))
    }

    @Test(arguments: ["bad name", "x:y", "", "a\r\nb"])
    func invalidHeaderNamesAreRefused(name: String) {
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:9/")!, headers: [(name, "v")])
        #expect(throws: APIError.self) { try HTTPTransport().perform(request) }
        #expect(throws: Never.self) { try HeaderGuard.check([("x-makima-api-key", Self.key.secret)]) }
    }

    @Test func onlyHTTPAndHTTPSAreFetched() {
        #expect(throws: APIError.invalidRequest("only http and https URLs are fetched")) {
            try HTTPTransport().perform(HTTPRequest(url: URL(string: "file:///etc/passwd")!))
        }
    }
}
