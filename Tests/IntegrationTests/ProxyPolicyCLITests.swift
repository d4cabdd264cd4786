import Foundation
import TestSupport
import Testing

/// The proxy variables set, against a loopback server: neither REST nor the WebSocket may go
/// through the proxy (the WebSocket used to, with `CONNECT`, and the proxy read the plaintext
/// upgrade holding the key).
@Suite(.timeLimit(.minutes(3))) struct ProxyPolicyCLITests {
    /// `recording_proxy.py`: records what reaches it, refuses everything.
    final class RecordingProxy {
        let logPath: String
        private let fixture: FixtureProcess
        var port: Int { fixture.port }

        init(in dir: TempDirectory) throws {
            logPath = dir.sub("proxy.log")
            fixture = try FixtureProcess(script: "recording_proxy.py", arguments: [logPath])
        }

        var received: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    }

    @Test func watchAgainstLoopbackNeverTouchesTheProxy() async throws {
        let server = try DevServer()
        let dir = TempDirectory()
        let proxy = try RecordingProxy(in: dir)
        let proxyURL = "http://127.0.0.1:\(proxy.port)"
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        watch.arguments = ["watch"]
        watch.environment = [
            "PATH": "/usr/bin:/bin", "HOME": dir.path, "LANG": "C.UTF-8", "MAKIMA_CONFIG_DIR": dir.sub("config"),
            "MAKIMA_CACHE_DIR": dir.sub("cache"), "MAKIMA_SERVER_URL": server.baseURL.absoluteString,
            "MAKIMA_API_KEY": server.apiKey.secret, "http_proxy": proxyURL, "https_proxy": proxyURL,
            "all_proxy": proxyURL, "no_proxy": "",
        ]
        watch.standardOutput = FileHandle.nullDevice
        watch.standardError = FileHandle.nullDevice
        try SignalSafeSpawn.run(watch)
        defer {
            watch.interrupt()
            watch.waitUntilExit()
        }
        // The dev server counts its WebSocket subscribers: one means the upgrade reached it.
        var subscribed = false
        let deadline = Date().addingTimeInterval(90)
        while !subscribed && Date() < deadline && watch.isRunning {
            let dropped = try server.controlJSON(path: "/_dev/drop_ws")["dropped"] as? Int ?? 0
            subscribed = dropped > 0
            if !subscribed { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(subscribed, "watch's WebSocket reached the loopback server directly")
        // A Bool, not the bytes: a failure message must not print what the proxy read.
        let proxyUntouched = proxy.received.isEmpty
        #expect(proxyUntouched, "the proxy received \(proxy.received.utf8.count) bytes")
    }
}
