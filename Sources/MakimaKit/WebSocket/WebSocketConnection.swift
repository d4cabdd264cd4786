import Foundation
import Synchronization

/// A blocking WebSocket client (RFC 6455) for one connection, made to run on a dedicated
/// `Thread`: libcurl opens TCP + TLS (certificates verified), the Upgrade is written by hand,
/// wslay does the framing.
///
/// `run` blocks its thread until the connection ends and calls back on that thread; `send` and
/// `close` may be called from any thread at any time (before, during or after `run`).
///
/// A text message that is not valid UTF-8 does not fail the connection: wslay would close with
/// 1007 (RFC 6455 8.1, no switch for it), and a server replaying that message on every resync
/// would make the client reconnect forever. Its bad bytes are replaced with `?` before wslay
/// reads them, and text reaches wslay marked binary so it is checked once, by us
/// (`WebSocketTextRepair`; counted in `stats.textBytesRepaired`).
/// Liveness: after `pingAfterSilence` without receiving a byte a ping goes out; after
/// `deadAfterSilence` the peer is declared gone (`.peerVanished`).
public final class WebSocketConnection: Sendable, CustomReflectable {
    public let url: URL
    public let options: WebSocketOptions
    private let target: WebSocketTarget
    private let headers: [String: String]
    private let outbox: WebSocketOutbox
    private let started = Atomic<Bool>(false)
    private let latestStats = Mutex(WebSocketStats())

    /// No I/O happens here. Throws on a URL that is not ws/wss (http/https accepted as the
    /// same) and on a header that could split the request (see `WebSocketHandshake.validate`).
    public init(url: URL, headers: [String: String] = [:], options: WebSocketOptions = WebSocketOptions())
        throws(WebSocketSetupError)
    {
        try WebSocketHandshake.validate(headers: headers)
        self.target = try WebSocketTarget(url)
        self.url = url
        self.headers = headers
        self.options = options
        self.outbox = try WebSocketOutbox()
    }

    /// Connects, upgrades and exchanges messages until the connection ends; returns why.
    /// Call once. `onOpen` runs when the WebSocket is open (before any message is delivered);
    /// texts queued inside it are the first ones sent.
    public func run(
        onOpen: () -> Void = {},
        onText: (String) -> Void,
        onBinary: (Data) -> Void = { _ in }
    ) -> WebSocketCloseReason {
        run(onOpen: onOpen, onTexts: { texts in for text in texts { onText(text) } }, onBinary: onBinary)
    }

    /// As `run(onOpen:onText:onBinary:)`, with the texts of each socket read handed over
    /// together (one hand-off per read, not per message).
    public func run(
        onOpen: () -> Void = {},
        onTexts: ([String]) -> Void,
        onBinary: (Data) -> Void = { _ in }
    ) -> WebSocketCloseReason {
        precondition(!started.exchange(true, ordering: .acquiringAndReleasing), "WebSocketConnection.run called twice")
        if outbox.isClosing, let asked = outbox.take().close { return .normal(code: asked.code, reason: asked.reason) }
        guard let transport = WebSocketTransport() else { return .transport("libcurl could not be initialised") }
        let opening = WebSocketOpening(transport: transport, options: options, outbox: outbox)
        let session: WebSocketSession
        switch opening.perform(target: target, headers: headers) {
        case .refused(let reason):
            return reason
        case .open(let leftover):
            session = WebSocketSession(transport: transport, leftover: leftover, options: options, outbox: outbox)
        }
        if let failure = session.startFraming() { return failure }
        onOpen()
        let reason = session.exchange(
            deliver: { messages in
                var texts: [String] = []
                texts.reserveCapacity(messages.count)
                for message in messages {
                    switch message {
                    case .text(let text): texts.append(text)
                    case .binary(let data):
                        if !texts.isEmpty { onTexts(texts) }
                        texts.removeAll()
                        onBinary(data)
                    }
                }
                if !texts.isEmpty { onTexts(texts) }
            },
            publish: { stats in latestStats.withLock { $0 = stats } }
        )
        latestStats.withLock { $0 = session.stats }
        return reason
    }

    /// Queues a text message; sent as soon as the connection is open. Dropped after a close.
    public func send(text: String) {
        outbox.send(text)
    }

    /// Starts the close handshake (or abandons a connect in progress); `run` returns
    /// `.normal(code, reason)` once the peer answers or `closeTimeout` passes.
    /// `reason` is cut to 120 bytes.
    public func close(code: UInt16 = 1000, reason: String = "") {
        outbox.close(code: code, reason: reason)
    }

    /// Counters as of the last turn of the loop.
    public var stats: WebSocketStats { latestStats.withLock { $0 } }

    /// Header names only: a value may be the API key, and `dump` must not show it.
    public var customMirror: Mirror {
        Mirror(self, children: ["url": url, "headers": headers.keys.sorted(), "stats": stats])
    }
}
