import Foundation

/// Connect and Upgrade: TCP + TLS through libcurl, then the HTTP/1.1 Upgrade request written
/// and its answer head read by hand. On the connection's thread; a close request from another
/// thread aborts it at any step.
struct WebSocketOpening {
    enum Outcome {
        /// `leftover`: the bytes after the answer head, the start of the first frame.
        case open(leftover: ArraySlice<UInt8>)
        case refused(WebSocketCloseReason)
    }

    let transport: WebSocketTransport
    let options: WebSocketOptions
    let outbox: WebSocketOutbox
    private let clock = ContinuousClock()

    func perform(target: WebSocketTarget, headers: [String: String]) -> Outcome {
        switch transport.connect(to: target, options: options, outbox: outbox) {
        case .connected: break
        case .aborted: return .refused(closedLocally())
        case .failed(let why): return .refused(.transport(UntrustedText.clean(why)))
        }
        let key: String
        do { key = try WebSocketHandshake.makeKey() } catch { return .refused(.transport(error.description)) }
        let deadline = clock.now + .seconds(options.handshakeTimeout)
        if let failure = sendAll(
            WebSocketHandshake.request(target: target, key: key, headers: headers), until: deadline)
        {
            return .refused(failure)
        }
        var received: [UInt8] = []
        if let failure = readHead(until: deadline, into: &received) { return .refused(failure) }
        let end = WebSocketHandshake.endOfHead(in: received)!
        guard let response = WebSocketHandshake.parse(head: received[..<end]) else {
            return .refused(.protocolError("unreadable answer to the upgrade"))
        }
        if let refusal = WebSocketHandshake.check(response, key: key) { return .refused(refusal) }
        return .open(leftover: received[end...])
    }

    private func closedLocally() -> WebSocketCloseReason {
        let request = outbox.take().close
        return .normal(code: request?.code ?? 1000, reason: request?.reason ?? "")
    }

    /// Waits for the socket; a close request aborts, other wake-ups (texts queued) don't.
    private func awaitSocket(read: Bool, until deadline: ContinuousClock.Instant) -> WebSocketCloseReason? {
        while true {
            if outbox.isClosing { return closedLocally() }
            let d = deadline - clock.now
            let left = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            guard left > 0 else { return .transport("the server did not answer the upgrade in time") }
            switch transport.wait(read: read, write: !read, wake: outbox.wake, timeout: left) {
            case .ready: return nil
            case .woken, .timedOut: continue
            }
        }
    }

    private func sendAll(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) -> WebSocketCloseReason? {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { transport.send($0.baseAddress! + sent, count: bytes.count - sent) }
            switch result {
            case .done(let n): sent += n
            case .wouldBlock: if let stop = awaitSocket(read: false, until: deadline) { return stop }
            case .closed: return .transport("connection closed while sending the upgrade")
            case .failed(let why): return .transport(UntrustedText.clean(why))
            }
        }
        return nil
    }

    /// Reads until the buffer holds a complete head (it may hold more: the first frames).
    private func readHead(until deadline: ContinuousClock.Instant, into received: inout [UInt8])
        -> WebSocketCloseReason?
    {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            switch chunk.withUnsafeMutableBytes({ transport.receive(into: $0.baseAddress!, count: $0.count) }) {
            case .done(let n):
                received += chunk[0..<n]
                if WebSocketHandshake.endOfHead(in: received) != nil { return nil }
                if received.count > WebSocketHandshake.maxResponseHeadBytes {
                    return .protocolError("answer head over \(WebSocketHandshake.maxResponseHeadBytes) bytes")
                }
            case .wouldBlock:
                if let stop = awaitSocket(read: true, until: deadline) { return stop }
            case .closed:
                return .transport("connection closed during the upgrade")
            case .failed(let why):
                return .transport(UntrustedText.clean(why))
            }
        }
    }
}
