import Foundation
import MakimaKit
import Testing

/// wss through libcurl's TLS with certificate verification, against the peer serving a
/// certificate made for this run (a self-signed CA-less leaf for 127.0.0.1 only).
@Suite struct WebSocketTLSTests {
    /// The peer and its certificate; the files go with it.
    final class Fixture {
        let directory: URL
        let certificatePath: String
        let keyPath: String
        let peer: WebSocketPeer

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("ws-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let cert = directory.appendingPathComponent("cert.pem").path
            let key = directory.appendingPathComponent("key.pem").path
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            openssl.arguments = [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-days", "1", "-subj", "/CN=makima-test", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", key, "-out", cert,
            ]
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
            certificatePath = cert
            keyPath = key
            peer = try WebSocketPeer(certificate: (cert, key))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    let fixture: Fixture
    var peer: WebSocketPeer { fixture.peer }
    var certificatePath: String { fixture.certificatePath }

    init() throws { fixture = try Fixture() }

    @Test func echoesOverTLSWhenTheCertificateIsTrusted() async throws {
        var options = WebSocketOptions()
        options.caBundlePath = certificatePath
        let connection = try WebSocketConnection(url: peer.url("/echo"), options: options)
        let result = await runOnThread(connection, onOpen: { $0.send(text: "over tls") }, onText: { c, _ in c.close() })
        #expect(result.texts == ["over tls"])
        #expect(result.reason == .normal(code: 1000, reason: ""))
    }

    @Test func largeMessagesOverTLS() async throws {
        var options = WebSocketOptions()
        options.caBundlePath = certificatePath
        let result = await runOnThread(
            try WebSocketConnection(url: peer.url("/send?n=4&size=1048576"), options: options))
        #expect(result.texts.map(\.utf8.count) == Array(repeating: 1_048_576, count: 4))
        #expect(result.reason == .normal(code: 1000, reason: "done"))
    }

    @Test func untrustedCertificateIsRefused() async throws {
        let result = await runOnThread(try WebSocketConnection(url: peer.url("/echo")))
        #expect(!result.opened)
        guard case .transport(let why) = result.reason else {
            Issue.record("expected a transport error, got \(result.reason)")
            return
        }
        #expect(why.lowercased().contains("certificate"))
    }

    @Test func nameMismatchIsRefusedEvenWithTheCertificateTrusted() async throws {
        var options = WebSocketOptions()
        options.caBundlePath = certificatePath
        // The certificate names 127.0.0.1 only; "localhost" resolves there but does not match.
        let result = await runOnThread(
            try WebSocketConnection(url: peer.url("/echo", host: "localhost"), options: options))
        #expect(!result.opened)
        guard case .transport = result.reason else {
            Issue.record("expected a transport error, got \(result.reason)")
            return
        }
    }
}
