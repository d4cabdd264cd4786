import Foundation
import MakimaKit
import Testing

/// The client against a real peer on loopback (Fixtures/ws_peer.py, Python aiohttp).
@Suite struct WebSocketConnectionTests {
    let peer: WebSocketPeer
    init() throws { peer = try WebSocketPeer.shared.get() }

    func connect(_ path: String, headers: [String: String] = [:], options: WebSocketOptions = WebSocketOptions()) throws
        -> WebSocketConnection
    {
        try WebSocketConnection(url: peer.url(path), headers: headers, options: options)
    }

    @Test func echoesTextBothWaysThenClosesWithOurCode() async throws {
        let sent = ["hello", "日本語 ✓ 契約", String(repeating: "z", count: 70_000)]
        let result = await runOnThread(
            try connect("/echo"),
            onOpen: { c in
                for text in sent { c.send(text: text) }
            },
            onText: { c, got in
                if got.count == sent.count { c.close(code: 1000, reason: "bye") }
            })
        #expect(result.opened)
        #expect(result.texts == sent)
        #expect(result.reason == .normal(code: 1000, reason: "bye"))
        #expect(result.stats.messagesSent == 3)
        #expect(result.stats.messagesReceived == 3)
    }

    @Test func sendsTheKeyHeaderAndThePathWithQuery() async throws {
        let key = "mk_test_only_key_0042"
        let result = await runOnThread(
            try connect("/headers?expect=\(key)&x=%20y", headers: ["x-makima-api-key": key, "X-Extra": "a\tb"]),
            onText: { c, got in if got.count == 3 { c.close() } })
        #expect(result.texts == ["key-ok", "target:/headers?expect=\(key)&x=%20y", "extra:a\tb"])
    }

    @Test func receivesManySmallMessagesInOrder() async throws {
        let result = await runOnThread(try connect("/send?n=2000&size=64"))
        #expect(result.reason == .normal(code: 1000, reason: "done"))
        #expect(result.texts.count == 2000)
        #expect(result.texts.enumerated().allSatisfy { i, t in t.hasPrefix("\(i):") && t.utf8.count == 64 })
        #expect(result.stats.messagesReceived == 2000)
    }

    @Test func receivesOneMebibyteMessagesWhole() async throws {
        let result = await runOnThread(try connect("/send?n=3&size=1048576"))
        #expect(result.reason == .normal(code: 1000, reason: "done"))
        #expect(result.texts.map(\.utf8.count) == [1_048_576, 1_048_576, 1_048_576])
        #expect(result.texts.last?.hasPrefix("2:xxx") == true)
    }

    @Test func messageOverTheCapClosesWith1009AndIsCounted() async throws {
        let result = await runOnThread(try connect("/huge?size=10000000"))
        #expect(result.reason == .messageTooBig)
        #expect(result.texts.isEmpty)
        #expect(result.stats.oversizeRejected == 1)
    }

    @Test func capIsConfigurable() async throws {
        var options = WebSocketOptions()
        options.maxMessageBytes = 1000
        let small = await runOnThread(try connect("/send?n=2&size=1000", options: options))
        #expect(small.reason == .normal(code: 1000, reason: "done"))
        #expect(small.texts.count == 2)
        let big = await runOnThread(try connect("/send?n=2&size=1001", options: options))
        #expect(big.reason == .messageTooBig)
        #expect(big.texts.isEmpty)
    }

    @Test func reassemblesFragmentsWithAPingInBetween() async throws {
        let result = await runOnThread(try connect("/fragmented"))
        #expect(result.texts == ["fragmented", "日本語"])
        #expect(result.reason == .normal(code: 1000, reason: "fragments done"))
    }

    @Test func answersServerPingWithItsPayload() async throws {
        let result = await runOnThread(try connect("/ping"))
        #expect(result.texts == ["pong:are-you-there"])
        #expect(result.reason == .normal(code: 1000, reason: ""))
    }

    @Test func reportsServerCloseCodeWithCleanedReason() async throws {
        let result = await runOnThread(try connect("/close4001"))
        #expect(result.texts == ["before-close"])
        // The peer's reason holds an ESC sequence: it arrives without it.
        #expect(result.reason == .normal(code: 4001, reason: "bye red"))
    }

    @Test func unauthorizedUpgradeIsDistinct() async throws {
        for status in [401, 403] {
            let result = await runOnThread(try connect("/reject?status=\(status)"))
            #expect(result.reason == .unauthorized(status: status))
            #expect(!result.opened)
        }
        let other = await runOnThread(try connect("/reject?status=503"))
        #expect(other.reason == .handshake(status: 503))
        let missing = await runOnThread(try connect("/no-such-path"))
        #expect(missing.reason == .handshake(status: 404))
    }

    @Test func wrongAcceptValueIsRefused() async throws {
        let result = await runOnThread(try connect("/badaccept"))
        #expect(!result.opened)
        guard case .protocolError(let why) = result.reason else {
            Issue.record("expected a protocol error, got \(result.reason)")
            return
        }
        #expect(why.contains("Sec-WebSocket-Accept"))
    }

    @Test func frameInTheSamePacketAsTheUpgradeAnswerIsKept() async throws {
        let result = await runOnThread(try connect("/early"))
        #expect(result.opened)
        #expect(result.texts == ["early"])
        #expect(result.reason == .normal(code: 1000, reason: ""))
    }

    @Test func silentPeerIsPingedThenDeclaredGone() async throws {
        var options = WebSocketOptions()
        options.pingAfterSilence = 0.3
        options.deadAfterSilence = 1.0
        let result = await runOnThread(try connect("/silent", options: options))
        #expect(result.opened)
        #expect(result.reason == .peerVanished)
        #expect(result.stats.pingsSent >= 2)
        #expect(result.stats.pongsReceived == 0)
    }

    /// A peer that floods pings and never reads: before the bound, every pong queued in
    /// wslay without limit (hundreds of MB a second). Now reading pauses while the send queue
    /// is over its bound, the queue stays near it, and the connection ends as abusive.
    @Test func pingFloodWithoutReadingIsBoundedAndClosedAsAbusive() async throws {
        var options = WebSocketOptions()
        options.sendQueueStallLimit = 2
        // A peer of its own: the flood must not slow the shared peer other tests use meanwhile.
        let floodPeer = try WebSocketPeer()
        let connection = try WebSocketConnection(url: floodPeer.url("/ping_flood?limit=30"), options: options)
        let result = await runOnThread(connection, watchdog: 40)
        #expect(result.opened)
        guard case .protocolError(let why) = result.reason else {
            Issue.record("expected an abusive-peer close, got \(result.reason)")
            return
        }
        #expect(why.contains("abusive"))
        #expect(result.stats.readsPausedForSendQueue > 0)
        // Over the bound by at most one read's worth of pongs (wslay reads 4 KiB at a time).
        #expect(result.stats.sendQueuePeakMessages <= 1_024 + 4_096)
        #expect(result.stats.sendQueuePeakBytes <= (1 << 20) + 4_096 * 125)
    }

    @Test func answeredPingsKeepAQuietConnectionAlive() async throws {
        var options = WebSocketOptions()
        options.pingAfterSilence = 0.1
        options.deadAfterSilence = 0.5
        let connection = try connect("/echo", options: options)
        // Five pongs span more than `deadAfterSilence`: only the pongs keep it open that long.
        let watcher = Thread {
            let giveUp = Date().addingTimeInterval(20)
            while connection.stats.pongsReceived < 5, Date() < giveUp { Thread.sleep(forTimeInterval: 0.02) }
            connection.close(code: 1000, reason: "enough pongs")
        }
        watcher.start()
        let result = await runOnThread(connection)
        #expect(result.reason == .normal(code: 1000, reason: "enough pongs"))
        #expect(result.stats.pingsSent >= 5)
        #expect(result.texts.isEmpty)
    }

    /// A text message with bytes that are not UTF-8 used to fail the connection with 1007
    /// (wslay's check), so a server replaying it made the client reconnect forever. The bad
    /// bytes are replaced with `?` on the way in; that message and the ones after it arrive.
    @Test func invalidUTF8TextIsRepairedAndTheConnectionLives() async throws {
        let result = await runOnThread(try connect("/invalid_utf8"))
        #expect(result.texts == ["before", "bad ?? end", "after"])
        #expect(result.stats.textBytesRepaired == 2)
        #expect(result.stats.malformedRejected == 0)
        #expect(result.reason == .normal(code: 1000, reason: ""))
    }

    @Test func binaryMessagesArriveAsData() async throws {
        let result = await runOnThread(try connect("/binary"))
        #expect(result.binaries == [Data((0...255).map { UInt8($0) })])
        #expect(result.texts.isEmpty)
    }

    @Test func hangUpWithoutCloseFrameIsATransportError() async throws {
        let result = await runOnThread(try connect("/drop"), onOpen: { $0.send(text: "hi") })
        #expect(result.texts == ["got:hi"])
        guard case .transport = result.reason else {
            Issue.record("expected a transport error, got \(result.reason)")
            return
        }
    }

    @Test func closeBeforeRunNeverConnects() async throws {
        let connection = try connect("/echo")
        connection.close(code: 1001, reason: "going away")
        let result = await runOnThread(connection)
        #expect(!result.opened)
        #expect(result.reason == .normal(code: 1001, reason: "going away"))
    }

    @Test func refusedPortIsATransportError() async throws {
        // A port that was just free: bind, read the number, close.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        }
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        close(fd)
        let port = Int(UInt16(bigEndian: addr.sin_port))
        let result = await runOnThread(try WebSocketConnection(url: URL(string: "ws://127.0.0.1:\(port)/")!))
        guard case .transport(let why) = result.reason else {
            Issue.record("expected a transport error, got \(result.reason)")
            return
        }
        #expect(why.contains("connect"))
    }

    @Test func closeAbortsAConnectInProgress() async throws {
        let listener = try StalledListener()
        var options = WebSocketOptions()
        options.connectTimeout = 30
        let connection = try WebSocketConnection(
            url: URL(string: "ws://127.0.0.1:\(listener.port)/")!, options: options)
        let closer = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            connection.close(code: 1001, reason: "quit")
        }
        closer.start()
        // Without the abort this would end as a connect timeout (or the watchdog's 4999).
        let result = await runOnThread(connection)
        #expect(!result.opened)
        #expect(result.reason == .normal(code: 1001, reason: "quit"))
    }
}
