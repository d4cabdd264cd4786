import Foundation
import MakimaKit
import Testing

/// Throughput on loopback. Off by default (speed is for benchmarks, not for the test run):
/// `MAKIMA_BENCH=1 swift test --filter WebSocketBenchmarkTests`. Prints the figures; asserts
/// only that everything arrived.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["MAKIMA_BENCH"] == "1"))
struct WebSocketBenchmarkTests {
    func measure(_ label: String, url: URL, options: WebSocketOptions = WebSocketOptions(), count: Int, size: Int)
        async throws
    {
        var options = options
        options.maxMessageBytes = max(options.maxMessageBytes, size)
        let connection = try WebSocketConnection(url: url, options: options)
        let start = ContinuousClock.now
        let result = await runOnThread(connection, watchdog: 300)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(result.reason == .normal(code: 1000, reason: "done"))
        #expect(result.stats.messagesReceived == count)
        #expect(result.stats.bytesReceived == count * size)
        let mps = Double(count) / seconds
        let mibps = Double(count * size) / seconds / 1_048_576
        print(
            "BENCH \(label): \(count) × \(size) B in \(String(format: "%.3f", seconds)) s = \(Int(mps)) msg/s, \(String(format: "%.1f", mibps)) MiB/s"
        )
    }

    @Test func smallFramesPlain() async throws {
        let peer = try WebSocketPeer.shared.get()
        try await measure("ws 64 B frames", url: peer.url("/blast?n=300000&size=64"), count: 300_000, size: 64)
    }

    @Test func mebibyteMessagesPlain() async throws {
        let peer = try WebSocketPeer.shared.get()
        try await measure("ws 1 MiB messages", url: peer.url("/blast?n=300&size=1048576"), count: 300, size: 1_048_576)
    }

    @Test func smallFramesViaAiohttpSendStr() async throws {
        let peer = try WebSocketPeer.shared.get()
        try await measure(
            "ws 64 B via aiohttp send_str", url: peer.url("/send?n=50000&size=64"), count: 50_000, size: 64)
    }

    @Test func overTLS() async throws {
        let fixture = try WebSocketTLSTests.Fixture()
        var options = WebSocketOptions()
        options.caBundlePath = fixture.certificatePath
        try await measure(
            "wss 64 B frames", url: fixture.peer.url("/blast?n=300000&size=64"), options: options, count: 300_000,
            size: 64)
        try await measure(
            "wss 1 MiB messages", url: fixture.peer.url("/blast?n=300&size=1048576"), options: options, count: 300,
            size: 1_048_576)
    }
}
