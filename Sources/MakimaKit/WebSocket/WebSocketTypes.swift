import Foundation

/// Why a `WebSocketConnection` could not even be built. Never holds a header value.
public enum WebSocketSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidURL(String)
    case invalidHeader(name: String, why: String)
    case system(String)

    public var description: String {
        switch self {
        case .invalidURL(let why): "invalid WebSocket URL: \(why)"
        case .invalidHeader(let name, let why): "invalid header \(name): \(why)"
        case .system(let why): "system error: \(why)"
        }
    }
}

/// How a connection ended. Everything but `unauthorized` is worth a reconnect.
public enum WebSocketCloseReason: Equatable, Sendable, CustomStringConvertible {
    /// A close handshake: the peer's code and (cleaned) reason, or ours when `close` was called.
    case normal(code: UInt16, reason: String)
    /// Nothing at all arrived for `WebSocketOptions.deadAfterSilence`.
    case peerVanished
    /// The upgrade was answered 401 or 403: retrying with the same key cannot help.
    case unauthorized(status: Int)
    /// The upgrade was answered with another status than 101.
    case handshake(status: Int)
    /// The upgrade was answered 429 or 503 with a readable `Retry-After` (`RetryAfter`, at most a
    /// day): the server asked not to be tried again for `retryAfter` seconds.
    case throttled(status: Int, retryAfter: TimeInterval)
    /// Connect, TLS, read or write failed, or the peer hung up without a close frame.
    case transport(String)
    /// A message exceeded `WebSocketOptions.maxMessageBytes`; closed with 1009.
    case messageTooBig
    /// The peer broke RFC 6455 (bad accept value, bad frame, invalid UTF-8 in a text message).
    case protocolError(String)

    public var description: String {
        switch self {
        case .normal(let code, let reason): reason.isEmpty ? "closed (\(code))" : "closed (\(code) \(reason))"
        case .peerVanished: "server stopped answering"
        case .unauthorized(let status): "unauthorized (\(status))"
        case .handshake(let status): "upgrade refused (\(status))"
        case .throttled(let status, let after): "upgrade refused (\(status)), retry after \(Int(after.rounded(.up))) s"
        case .transport(let why): why
        case .messageTooBig: "message over the size limit (1009)"
        case .protocolError(let why): "protocol error: \(why)"
        }
    }
}

extension WebSocketCloseReason {
    /// The wait the server asked for with this refusal, if any.
    public var retryAfter: TimeInterval? {
        if case .throttled(_, let after) = self { after } else { nil }
    }

    /// The key masked wherever the server's words appear (a close reason can echo it).
    public func redacting(_ key: APIKey) -> WebSocketCloseReason {
        func r(_ s: String) -> String { SecretMask.mask(s, secret: key.secret, with: key.masked) }
        switch self {
        case .normal(let code, let reason): return .normal(code: code, reason: r(reason))
        case .transport(let why): return .transport(r(why))
        case .protocolError(let why): return .protocolError(r(why))
        default: return self
        }
    }
}

public struct WebSocketOptions: Sendable, Equatable {
    /// Messages longer than this close the connection with 1009 (`messageTooBig`).
    public var maxMessageBytes: Int
    /// A ping goes out after this long without receiving anything.
    public var pingAfterSilence: TimeInterval
    /// After this long without receiving anything (pongs included) the peer is declared gone.
    public var deadAfterSilence: TimeInterval
    /// DNS + TCP + TLS.
    public var connectTimeout: TimeInterval
    /// Sending the Upgrade request and reading the answer head.
    public var handshakeTimeout: TimeInterval
    /// How long a close we started waits for the peer's close frame.
    public var closeTimeout: TimeInterval
    /// An extra CA bundle (PEM) to trust, e.g. a private CA; verification is never turned off.
    public var caBundlePath: String?
    /// The proxy variables (the environment's by default); the policy is REST's (`ConnectionRoute`).
    public var proxies: ProxySettings
    /// How long the send queue may stay over its bound (reading paused, the peer not reading
    /// our pongs) before the connection is closed as abusive.
    public var sendQueueStallLimit: TimeInterval = 10
    /// After a read that emptied the socket, the next read waits at least this long (what
    /// arrives meanwhile waits in the socket's buffer and is read in one go); 0 reads at once.
    /// Events show at most 10 frames a second, so 25 ms of latency is not seen, and a stream
    /// of a hundred small writes a second costs forty reads, not a hundred.
    public var readPace: TimeInterval = 0.025

    public init(
        maxMessageBytes: Int = 8 << 20, pingAfterSilence: TimeInterval = 15, deadAfterSilence: TimeInterval = 45,
        connectTimeout: TimeInterval = 10, handshakeTimeout: TimeInterval = 10, closeTimeout: TimeInterval = 3,
        caBundlePath: String? = nil, proxies: ProxySettings = .fromProcess()
    ) {
        self.proxies = proxies
        self.maxMessageBytes = maxMessageBytes
        self.pingAfterSilence = pingAfterSilence
        self.deadAfterSilence = deadAfterSilence
        self.connectTimeout = connectTimeout
        self.handshakeTimeout = handshakeTimeout
        self.closeTimeout = closeTimeout
        self.caBundlePath = caBundlePath
    }
}

/// What one connection has seen so far.
public struct WebSocketStats: Sendable, Equatable {
    /// Complete text and binary messages passed on.
    public var messagesReceived = 0
    public var binaryMessagesReceived = 0
    /// Payload bytes of the messages passed on.
    public var bytesReceived = 0
    /// Text messages that were not valid UTF-8 after all, skipped. Bad bytes are replaced on
    /// the way in (`textBytesRepaired`), so this stays 0 in practice.
    public var malformedRejected = 0
    /// Bytes of text payloads that were not UTF-8, replaced with `?` so the message is kept.
    public var textBytesRepaired = 0
    /// Messages over the size cap (each one ends the connection).
    public var oversizeRejected = 0
    public var pingsSent = 0
    public var pongsReceived = 0
    public var messagesSent = 0
    /// The most bytes and messages (our texts, wslay's pongs and closes) waiting to be sent at
    /// once, and how often reading paused because the queue was over its bound.
    public var sendQueuePeakBytes = 0
    public var sendQueuePeakMessages = 0
    public var readsPausedForSendQueue = 0

    public init() {}

    /// Adds another connection's counters to these; a peak becomes the larger of the two.
    public mutating func add(_ other: WebSocketStats) {
        messagesReceived += other.messagesReceived
        binaryMessagesReceived += other.binaryMessagesReceived
        bytesReceived += other.bytesReceived
        malformedRejected += other.malformedRejected
        textBytesRepaired += other.textBytesRepaired
        oversizeRejected += other.oversizeRejected
        pingsSent += other.pingsSent
        pongsReceived += other.pongsReceived
        messagesSent += other.messagesSent
        sendQueuePeakBytes = max(sendQueuePeakBytes, other.sendQueuePeakBytes)
        sendQueuePeakMessages = max(sendQueuePeakMessages, other.sendQueuePeakMessages)
        readsPausedForSendQueue += other.readsPausedForSendQueue
    }
}
