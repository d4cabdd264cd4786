import Foundation
import Synchronization

/// Keeps the task-event WebSocket up: on its own `Thread` it connects, runs the connection,
/// and after every end waits out the backoff (cut short by `retryNow` or `stop`) and
/// reconnects; an upgrade answered 429/503 with `Retry-After` waits at least that long
/// (bounded by `BackoffPolicy.retryAfterCap`; `retryNow` does not cut it short). It stops by
/// itself only when the server refuses the key (401/403).
///
/// Callbacks run on the supervisor's thread: `onStatus` on every change, `onOpen` once per
/// opened connection (its answer, e.g. the resync message, is the first text sent), `onTexts`
/// with the text messages of each socket read, in order. Binary messages are ignored and counted.
/// The thread holds the supervisor until `stop()`: call it when done.
public final class WebSocketSupervisor: Sendable, CustomReflectable {
    public struct Stats: Sendable, Equatable {
        /// Connections tried, and those whose upgrade the server accepted.
        public var attempts = 0
        public var connectionsOpened = 0
        /// Every connection's own counters summed, the open one's included (binary messages,
        /// which the supervisor ignores, are `connections.binaryMessagesReceived`).
        public var connections = WebSocketStats()
        public var lastClose: WebSocketCloseReason?
    }

    private struct State {
        var status = ConnectionStatus.idle
        var current: WebSocketConnection?
        var started = false
        var stopped = false
        var retryRequested = false
        var stats = Stats()
    }

    public let url: URL
    private let apiKey: APIKey
    private let headers: [String: String]
    private let options: WebSocketOptions
    private let policy: BackoffPolicy
    private let clock: @Sendable () -> Date
    private let makeRandom: @Sendable () -> any RandomNumberGenerator
    private let onStatus: @Sendable (ConnectionStatus) -> Void
    private let onOpen: @Sendable () -> String?
    private let onTexts: @Sendable ([String]) -> Void
    private let state = Mutex(State())
    private let wake: WebSocketWakePipe
    private let finished = DispatchSemaphore(value: 0)

    /// Checks the URL and headers now (they cannot get better by retrying); no I/O until `start`.
    /// The key goes into `x-makima-api-key` and nowhere else.
    public init(
        url: URL,
        apiKey: APIKey,
        extraHeaders: [String: String] = [:],
        options: WebSocketOptions = WebSocketOptions(),
        policy: BackoffPolicy = BackoffPolicy(),
        clock: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> any RandomNumberGenerator = { SystemRandomNumberGenerator() },
        onStatus: @escaping @Sendable (ConnectionStatus) -> Void,
        onOpen: @escaping @Sendable () -> String?,
        onTexts: @escaping @Sendable ([String]) -> Void
    ) throws(WebSocketSetupError) {
        var headers = extraHeaders
        if !headers.keys.contains(where: { $0.lowercased() == "user-agent" }) {
            headers["User-Agent"] = "makima-tui/\(MakimaVersion.current)"
        }
        headers["x-makima-api-key"] = apiKey.secret
        try WebSocketHandshake.validate(headers: headers)
        _ = try WebSocketTarget(url)
        self.url = url
        self.apiKey = apiKey
        ArrivalMask.add(apiKey)
        self.headers = headers
        self.options = options
        self.policy = policy
        self.clock = clock
        self.makeRandom = random
        self.onStatus = onStatus
        self.onOpen = onOpen
        self.onTexts = onTexts
        self.wake = try WebSocketWakePipe()
    }

    /// `wss://host/…/api/v1/mesh/tasks/subscribe` for `https://host/…` (ws for http).
    public static func subscribeURL(forServer server: URL) -> URL? {
        guard var parts = URLComponents(url: server, resolvingAgainstBaseURL: false) else { return nil }
        switch parts.scheme?.lowercased() {
        case "https", "wss": parts.scheme = "wss"
        case "http", "ws": parts.scheme = "ws"
        default: return nil
        }
        let base = parts.path.hasSuffix("/") ? String(parts.path.dropLast()) : parts.path
        parts.path = base + "/api/v1/mesh/tasks/subscribe"
        parts.query = nil
        parts.fragment = nil
        return parts.url
    }

    public func start() {
        let first = state.withLock { s in
            guard !s.started, !s.stopped else { return false }
            s.started = true
            return true
        }
        guard first else { return }
        let thread = Thread { [self] in
            superviseUntilStopped()
            finished.signal()
        }
        thread.name = "makima-ws"
        thread.start()
    }

    /// Closes the connection (1001) and ends the thread; the last status is `.idle`.
    public func stop() {
        let current = state.withLock { s in
            s.stopped = true
            return s.current
        }
        current?.close(code: 1001, reason: "going away")
        wake.wake()
    }

    /// Cuts the backoff wait short (not a server's `Retry-After`). Does nothing unless offline
    /// with a retry planned.
    public func retryNow() {
        let waiting = state.withLock { s in
            guard case .offline(let next) = s.status.phase, next != nil else { return false }
            s.retryRequested = true
            return true
        }
        if waiting { wake.wake() }
    }

    /// Sends on the open connection; false (nothing sent) when not online. A text sent just
    /// before a drop can be lost with the connection: what must survive goes in `onOpen`.
    @discardableResult
    public func send(text: String) -> Bool {
        guard let connection = state.withLock({ $0.status.isOnline ? $0.current : nil }) else { return false }
        connection.send(text: text)
        return true
    }

    /// Blocks up to `timeout` seconds for the thread to end (after `stop`, or by itself after
    /// a refused key); true if it has. Not for the UI thread.
    public func waitUntilFinished(timeout: TimeInterval) -> Bool {
        guard state.withLock({ $0.started }) else { return true }
        guard finished.wait(timeout: .now() + timeout) == .success else { return false }
        finished.signal()  // later callers see it finished too
        return true
    }

    public var status: ConnectionStatus { state.withLock { $0.status } }
    /// Totals over every connection so far, the open one included.
    public var stats: Stats {
        state.withLock { s in
            var total = s.stats
            if let current = s.current { total.connections.add(current.stats) }
            return total
        }
    }

    /// Header names only: `dump` must not show the key.
    public var customMirror: Mirror {
        Mirror(self, children: ["url": url, "headers": headers.keys.sorted(), "status": status, "stats": stats])
    }

    // MARK: The supervisor thread

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func publish(_ status: ConnectionStatus) {
        let changed = state.withLock { s in
            guard s.status != status else { return false }
            s.status = status
            if case .offline = status.phase {} else { s.retryRequested = false }
            return true
        }
        if changed { onStatus(status) }
    }

    private func superviseUntilStopped() {
        var backoff = Backoff(policy: policy, random: makeRandom())
        while !isStopped {
            publish(ConnectionStatus(phase: .connecting, lastError: status.lastError))
            let reason = runOneConnection(&backoff)
            if isStopped { break }
            if case .unauthorized = reason {
                publish(
                    ConnectionStatus(phase: .offline(nextRetry: nil), lastError: reason.description, unauthorized: true)
                )
                return
            }
            let at = backoff.scheduleRetry(now: clock(), retryAfter: reason.retryAfter)
            publish(ConnectionStatus(phase: .offline(nextRetry: at), lastError: reason.description))
            waitForRetry(&backoff)
        }
        publish(.idle)
    }

    private func runOneConnection(_ backoff: inout Backoff) -> WebSocketCloseReason {
        // The URL and headers were checked in init, so this cannot throw for them; a failing
        // pipe() is reported like any other failed attempt.
        let connection: WebSocketConnection
        do {
            connection = try WebSocketConnection(url: url, headers: headers, options: options)
        } catch {
            return .transport(error.description)
        }
        let registered = state.withLock { s in
            s.stats.attempts += 1
            if !s.stopped { s.current = connection }
            return !s.stopped
        }
        guard registered else { return .normal(code: 1001, reason: "going away") }

        let reason = connection.run(
            onOpen: {
                backoff.connectionOpened(at: clock())
                state.withLock { $0.stats.connectionsOpened += 1 }
                // Queued before anyone can see ONLINE and send: the opening text goes first.
                if let first = onOpen() { connection.send(text: first) }
                publish(ConnectionStatus(phase: .online))
            },
            onTexts: onTexts
        ).redacting(apiKey)
        backoff.connectionClosed(at: clock())
        let seen = connection.stats
        state.withLock { s in
            s.current = nil
            s.stats.connections.add(seen)
            s.stats.lastClose = reason
        }
        return reason
    }

    private func waitForRetry(_ backoff: inout Backoff) {
        while !isStopped {
            let retry = state.withLock { s in
                defer { s.retryRequested = false }
                return s.retryRequested
            }
            if retry { backoff.retryNow(now: clock()) }
            if backoff.isDue(now: clock()) { return }
            let left = backoff.nextRetry.map { $0.timeIntervalSince(clock()) } ?? 0
            _ = wake.wait(timeout: max(left, 0))
        }
    }
}
