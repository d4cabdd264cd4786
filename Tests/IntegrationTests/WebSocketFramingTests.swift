import Foundation
import MakimaKit
import Testing

/// Framing a hostile peer can send (Fixtures/ws_peer.py writes these frames raw): a length
/// announced far over the cap, lengths RFC 6455 forbids, close frames with codes that must
/// never be on the wire, and a whole conversation cut into one-byte segments.
@Suite struct WebSocketFramingTests {
    let peer: WebSocketPeer
    init() throws { peer = try WebSocketPeer.shared.get() }

    func run(_ path: String) async throws -> WebSocketRunResult {
        await runOnThread(try WebSocketConnection(url: peer.url(path)))
    }

    @Test func aLengthOverTheCapIsRefusedOnTheHeaderWithoutWaitingForThePayload() async throws {
        let result = try await run("/announce_huge")
        #expect(result.texts == ["before"])
        #expect(result.reason == .messageTooBig)
        #expect(result.stats.oversizeRejected == 1)
    }

    @Test(arguments: [UInt64(1) << 63, UInt64.max])
    func aLengthWithItsTopBitSetIsAProtocolError(size: UInt64) async throws {
        let result = try await run("/announce_huge?size=\(size)")
        #expect(result.texts == ["before"])
        // Before: "WebSocket library error -400", a transport failure that said nothing.
        #expect(result.reason.description.contains("RFC 6455 forbids"))
        guard case .protocolError = result.reason else {
            Issue.record("expected a protocol error, got \(result.reason)")
            return
        }
    }

    /// Codes RFC 6455 says never travel (1005, 1006, 1015), outside every range (999, 5000), or
    /// reserved (1014, and 1016-2999): wslay answers 1002 and the
    /// client says the server broke the protocol, never showing the peer's code as its own.
    @Test(arguments: ["03ed", "03ee", "03f7", "03e7", "1388", "03f6"])
    func closeCodesThatMustNeverBeSentAreAProtocolError(payload: String) async throws {
        let result = try await run("/odd_close?payload=\(payload)")
        #expect(result.texts == ["before"])
        #expect(result.reason == .protocolError("the server broke the WebSocket protocol (closed with 1002)"))
    }

    @Test func aCloseWithoutACodeIsANormalCloseWithNoStatus() async throws {
        let result = try await run("/odd_close?payload=")
        #expect(result.reason == .normal(code: 1005, reason: ""))
    }

    @Test func aCloseReasonThatIsNotUTF8IsRefusedAndAFullLengthReasonKept() async throws {
        let bad = try await run("/odd_close?payload=03e8fffe")
        #expect(bad.reason == .protocolError("invalid UTF-8 in a text message (closed with 1007)"))
        // 123 bytes is the most a close frame's reason can hold: kept whole, cleaned.
        let long = try await run("/odd_close?payload=0fa1" + String(repeating: "41", count: 123))
        #expect(long.reason == .normal(code: 4001, reason: String(repeating: "A", count: 123)))
    }

    @Test func aConversationCutIntoOneByteSegmentsArrivesWhole() async throws {
        let result = try await run("/bytewise")
        #expect(result.texts == ["split", String(repeating: "z", count: 300), "日本語"])
        #expect(result.reason == .normal(code: 1000, reason: "bytewise"))
    }
}
