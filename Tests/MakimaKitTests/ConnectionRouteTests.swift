import Foundation
import Testing

@testable import MakimaKit

/// One proxy and loopback policy for REST and the WebSocket, checked on the decision itself
/// and on the wire with a loopback "proxy" that records whatever reaches it.
@Suite struct ConnectionRouteTests {
    static let key = APIKey("mk_route_test_secret_7c21")!
    static let proxyAll = ProxySettings(httpProxy: "http://proxy.test:3128", httpsProxy: "http://proxy.test:3128")

    // MARK: The decision

    @Test(arguments: ["127.0.0.1", "127.9.8.7", "localhost", "localhost.", "a.localhost", "a.localhost.", "[::1]"])
    func loopbackIsNeverProxied(host: String) throws {
        for scheme in ["http", "https"] {
            let route = try ConnectionRoute.plan(scheme: scheme, host: host, port: 8080, proxies: Self.proxyAll)
            #expect(route.proxy == nil)
        }
    }

    @Test func loopbackNamesResolveLocallyAndAddressesNeedNothing() throws {
        let name = try ConnectionRoute.plan(scheme: "http", host: "localhost.", port: 8080, proxies: .none)
        #expect(name.resolve == ["localhost.:8080:127.0.0.1,[::1]"])
        let sub = try ConnectionRoute.plan(scheme: "https", host: "api.localhost", port: nil, proxies: .none)
        #expect(sub.resolve == ["api.localhost:443:127.0.0.1,[::1]"])
        #expect(try ConnectionRoute.plan(scheme: "http", host: "127.0.0.1", port: 80, proxies: .none).resolve.isEmpty)
        #expect(try ConnectionRoute.plan(scheme: "http", host: "[::1]", port: 80, proxies: .none).resolve.isEmpty)
        #expect(
            try ConnectionRoute.plan(scheme: "https", host: "example.com", port: 443, proxies: .none).resolve.isEmpty)
    }

    @Test func httpsGoesThroughTheProxyUnlessNoProxyNamesTheHost() throws {
        let via = try ConnectionRoute.plan(scheme: "https", host: "api.example.com", port: nil, proxies: Self.proxyAll)
        #expect(via.proxy == "http://proxy.test:3128")
        for noProxy in ["example.com", ".example.com", "other.org, api.example.com", "*", "10.0.0.0/8 example.com"] {
            var p = Self.proxyAll
            p.noProxy = noProxy
            #expect(
                try ConnectionRoute.plan(scheme: "https", host: "api.example.com", port: nil, proxies: p).proxy == nil)
        }
        var p = Self.proxyAll
        p.noProxy = "ample.com,10.0.0.0/8"
        #expect(try ConnectionRoute.plan(scheme: "https", host: "api.example.com", port: nil, proxies: p).proxy != nil)
        #expect(try ConnectionRoute.plan(scheme: "https", host: "10.2.3.4", port: nil, proxies: p).proxy == nil)
        #expect(try ConnectionRoute.plan(scheme: "https", host: "11.2.3.4", port: nil, proxies: p).proxy != nil)
    }

    @Test func plainHTTPThroughAProxyIsRefusedAndWithoutOneGoesDirect() throws {
        #expect(throws: ConnectionRoute.Refusal.self) {
            try ConnectionRoute.plan(scheme: "http", host: "mesh.example.com", port: nil, proxies: Self.proxyAll)
        }
        let direct = try ConnectionRoute.plan(scheme: "http", host: "mesh.example.com", port: nil, proxies: .none)
        #expect(direct.proxy == nil)
    }

    @Test func environmentNamesFollowLibcurl() {
        let p = ProxySettings.from(environment: [
            "HTTP_PROXY": "http://cgi-header.test", "HTTPS_PROXY": "http://upper.test", "ALL_PROXY": "http://all.test",
            "NO_PROXY": "internal.test",
        ])
        #expect(p.httpProxy == nil, "upper-case HTTP_PROXY is not read (a CGI request header can set it)")
        #expect(p.httpsProxy == "http://upper.test")
        #expect(p.proxy(scheme: "http", host: "a.test") == "http://all.test")
        #expect(p.proxy(scheme: "https", host: "x.internal.test") == nil)
    }

    @Test func refusalNamesTheProxyWithoutItsPassword() {
        let refusal = ConnectionRoute.Refusal(host: "mesh.example.com", proxy: "http://user:hunter2@proxy.test:3128")
        #expect(refusal.description.contains("proxy.test:3128"))
        #expect(!refusal.description.contains("hunter2"))
    }

    // MARK: On the wire

    /// A "proxy" that records what reaches it and refuses everything.
    static func recordingProxy() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { _ in LoopbackHTTPServer.response(status: 403, body: "") }
    }

    static func proxies(_ proxy: LoopbackHTTPServer, noProxy: String? = nil) -> ProxySettings {
        ProxySettings(httpProxy: proxy.baseURL, httpsProxy: proxy.baseURL, noProxy: noProxy)
    }

    /// Runs a WebSocket connection to its end on a thread of its own.
    static func runWebSocket(_ url: String, proxies: ProxySettings) async throws -> WebSocketCloseReason {
        var options = WebSocketOptions(connectTimeout: 10, handshakeTimeout: 10)
        options.proxies = proxies
        let connection = try WebSocketConnection(
            url: URL(string: url)!, headers: ["x-makima-api-key": key.secret], options: options)
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: connection.run(onText: { _ in })) }.start()
        }
    }

    @Test func theWebSocketToLoopbackSkipsTheProxyLikeREST() async throws {
        let proxy = try Self.recordingProxy()
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.response(status: 404, body: "") }
        let reason = try await Self.runWebSocket(
            "ws://127.0.0.1:\(server.port)/api/v1/mesh/tasks/subscribe", proxies: Self.proxies(proxy))
        #expect(reason == .handshake(status: 404))
        #expect(server.received.first?.hasPrefix("GET /api/v1/mesh/tasks/subscribe HTTP/1.1") == true)

        let rest = APIClient(
            profile: try ServerProfile(server: server.baseURL), key: Self.key,
            transport: HTTPTransport(configuration: HTTPConfiguration(proxies: Self.proxies(proxy))))
        await #expect(throws: APIError.notFound) { try await rest.daemons() }
        #expect(server.received.count == 2)
        #expect(proxy.received.isEmpty, "nothing, and so no key, reached the proxy")
    }

    @Test func aPlaintextUpgradeThroughAProxyIsRefusedBeforeConnecting() async throws {
        let proxy = try Self.recordingProxy()
        let reason = try await Self.runWebSocket("ws://mesh.example.com/subscribe", proxies: Self.proxies(proxy))
        guard case .transport(let why) = reason else {
            Issue.record("expected a transport refusal, got \(reason)")
            return
        }
        #expect(why.contains("through the proxy"))
        let rest = APIClient(
            profile: try ServerProfile(server: "http://mesh.example.com", allowInsecureHTTP: true), key: Self.key,
            transport: HTTPTransport(configuration: HTTPConfiguration(proxies: Self.proxies(proxy))))
        await #expect {
            try await rest.daemons()
        } throws: { error in
            guard case .invalidRequest(let why) = error as? APIError else { return false }
            return why.contains("through the proxy")
        }
        #expect(proxy.received.isEmpty)
    }

    @Test func aSecureUpgradeTunnelsThroughTheProxyAndNoProxyIsHonoured() async throws {
        let proxy = try Self.recordingProxy()
        let reason = try await Self.runWebSocket("wss://mesh.example.com/subscribe", proxies: Self.proxies(proxy))
        guard case .transport = reason else {
            Issue.record("expected the proxy's refusal as a transport error, got \(reason)")
            return
        }
        let tunnel = try #require(proxy.received.first)
        #expect(tunnel.hasPrefix("CONNECT mesh.example.com:443 HTTP/1.1"))
        let keyInTunnelRequest = tunnel.contains(Self.key.secret)
        #expect(!keyInTunnelRequest, "the key travels only inside the TLS tunnel")

        // no_proxy names the host: the proxy sees nothing more (the direct connect fails on DNS).
        _ = try await Self.runWebSocket(
            "wss://mesh.example.com/subscribe", proxies: Self.proxies(proxy, noProxy: "example.com"))
        #expect(proxy.received.count == 1)
    }

    @Test func localhostWithATrailingDotIsResolvedLocally() async throws {
        // "localhost." is loopback (plain http allowed, no proxy) but not in /etc/hosts: without
        // the local resolve libcurl would ask DNS for it.
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.response(status: 200, body: "[]") }
        let client = APIClient(
            profile: try ServerProfile(server: "http://localhost.:\(server.port)"), key: Self.key,
            transport: HTTPTransport(configuration: HTTPConfiguration(proxies: .none)))
        let list = try await client.daemons()
        #expect(list.items.isEmpty)
        #expect(server.received.count == 1)
    }

    // MARK: Redirects

    @Test(arguments: [301, 302, 303, 307, 308])
    func redirectsAreNeverFollowedSoTheKeyStaysWithItsHost(status: Int) async throws {
        let elsewhere = try LoopbackHTTPServer { _ in LoopbackHTTPServer.response(status: 200, body: "[]") }
        let server = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.response(
                status: status, headers: ["Location: http://localhost:\(elsewhere.port)/api/v1/mesh/daemons"], body: "")
        }
        let client = APIClient(
            profile: try ServerProfile(server: server.baseURL), key: Self.key,
            transport: HTTPTransport(configuration: HTTPConfiguration(proxies: .none)))
        await #expect(throws: APIError.http(status: status, message: "")) { try await client.daemons() }
        #expect(server.received.count == 1)
        #expect(elsewhere.received.isEmpty)
    }

    @Test func aRedirectToAnotherSchemeIsNotFollowedEither() async throws {
        let server = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.response(status: 302, headers: ["Location: file:///etc/passwd"], body: "")
        }
        let client = APIClient(
            profile: try ServerProfile(server: server.baseURL), key: Self.key,
            transport: HTTPTransport(configuration: HTTPConfiguration(proxies: .none)))
        await #expect(throws: APIError.http(status: 302, message: "")) { try await client.daemons() }
    }

    @Test func anUpgradeAnsweredWithARedirectIsRefusedNotFollowed() async throws {
        let elsewhere = try LoopbackHTTPServer { _ in LoopbackHTTPServer.response(status: 404, body: "") }
        let server = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.response(
                status: 302, headers: ["Location: ws://127.0.0.1:\(elsewhere.port)/subscribe"], body: "")
        }
        let reason = try await Self.runWebSocket("ws://127.0.0.1:\(server.port)/subscribe", proxies: .none)
        #expect(reason == .handshake(status: 302))
        #expect(elsewhere.received.isEmpty)
    }
}
