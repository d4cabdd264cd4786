import CSHA1Shim
import CWslayShim
import Foundation

/// An open WebSocket of a `WebSocketConnection`, confined to the thread that calls `run`:
/// wslay's event loop (framing, fragmentation, ping/pong, close) over the upgraded transport,
/// the liveness pings, and the requests other threads left in the outbox.
final class WebSocketSession {
    enum Message {
        case text(String)
        case binary(Data)
    }

    private let transport: WebSocketTransport
    let options: WebSocketOptions
    private let outbox: WebSocketOutbox
    private let clock = ContinuousClock()
    private var context: wslay_event_context_ptr?
    /// Bytes that followed the answer head: the start of the first frame, read before the socket.
    private var leftover: ArraySlice<UInt8> = []
    private var inbox: [Message] = []
    var lastReceive: ContinuousClock.Instant
    private var transportFailure: String?
    /// Bytes wslay may still read this turn. A peer sending without pause would otherwise keep
    /// one `wslay_event_recv` call reading forever: no delivery, no sending, a growing inbox.
    private var readBudget = 0
    /// The last read stopped on the budget, not on an empty socket: data may sit in TLS
    /// buffers that poll() cannot see, so the next turn reads without waiting.
    private var stoppedOnBudget = false
    private static let readBudgetPerTurn = 1 << 20
    /// Reading stops while more than this waits in wslay's send queue (pongs wslay answers by
    /// itself, and our texts): a peer that sends pings and never reads would otherwise grow the
    /// queue without limit. Reading resumes once the queue drains below the bound.
    static let sendQueueBoundBytes = 1 << 20
    static let sendQueueBoundMessages = 1_024
    /// The queue stayed over the bound this long without draining: the peer floods and does
    /// not read, and the connection is closed as abusive.
    var sendQueueStalledSince: ContinuousClock.Instant?
    private var peerReason = ""
    /// Keeps one bad text message from failing the connection (see `WebSocketTextRepair`).
    private var textRepair = WebSocketTextRepair()
    var stats = WebSocketStats()

    /// Takes over an upgraded transport; `leftover` is what followed the answer head.
    init(transport: WebSocketTransport, leftover: ArraySlice<UInt8>, options: WebSocketOptions, outbox: WebSocketOutbox)
    {
        self.transport = transport
        self.leftover = leftover
        self.options = options
        self.outbox = outbox
        lastReceive = clock.now
    }

    deinit {
        if let context { wslay_event_context_free(context) }
    }

    /// Sets up wslay; nil on success.
    func startFraming() -> WebSocketCloseReason? {
        var callbacks = wslay_event_callbacks(
            recv_callback: { ctx, buf, len, _, user in
                WebSocketSession.from(user).wslayRecv(ctx, buf, len)
            },
            send_callback: { ctx, data, len, _, user in
                WebSocketSession.from(user).wslaySend(ctx, data, len)
            },
            genmask_callback: { _, buf, len, _ in
                wslayRandomBytes(buf, len)
            },
            on_frame_recv_start_callback: nil,
            on_frame_recv_chunk_callback: nil,
            on_frame_recv_end_callback: nil,
            on_msg_recv_callback: { _, arg, user in
                guard let arg else { return }
                WebSocketSession.from(user).wslayMessage(arg.pointee)
            }
        )
        var ctx: wslay_event_context_ptr?
        guard wslay_event_context_client_init(&ctx, &callbacks, Unmanaged.passUnretained(self).toOpaque()) == 0, let ctx
        else {
            return .transport("out of memory for the WebSocket context")
        }
        context = ctx
        wslay_event_config_set_max_recv_msg_length(ctx, UInt64(max(options.maxMessageBytes, 0)))
        return nil
    }

    // MARK: Exchanging frames

    private func seconds(until deadline: ContinuousClock.Instant) -> TimeInterval {
        let d = deadline - clock.now
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// Runs until the WebSocket ends; `deliver` gets the messages of each read, in order, on
    /// this thread: one hand-off per read, however many frames it held.
    func exchange(deliver: ([Message]) -> Void, publish: (WebSocketStats) -> Void) -> WebSocketCloseReason {
        guard let ctx = context else { return .transport("not open") }
        let pingEvery = Duration.seconds(options.pingAfterSilence)
        let deadAfter = Duration.seconds(options.deadAfterSilence)
        var lastPing = lastReceive
        var localClose: (code: UInt16, reason: String)?
        var closeDeadline: ContinuousClock.Instant?
        var readable = !leftover.isEmpty
        lastReceive = clock.now
        var lastRead: ContinuousClock.Instant?

        while true {
            queueAsked(ctx, localClose: &localClose, closeDeadline: &closeDeadline)
            if readable && wslay_event_want_read(ctx) != 0 && !sendQueueOverBound(ctx) {
                readBudget = WebSocketSession.readBudgetPerTurn
                stoppedOnBudget = false
                let rc = wslay_event_recv(ctx)
                lastRead = clock.now
                flush(deliver)
                if rc != 0 { return failed(ctx, rc, localClose) }
            }
            if wslay_event_want_write(ctx) != 0, wslay_event_send(ctx) != 0 {
                return failed(ctx, -1, localClose)
            }
            publish(stats)
            let wantRead = wslay_event_want_read(ctx) != 0
            let wantWrite = wslay_event_want_write(ctx) != 0
            if !wantRead && !wantWrite { return ended(ctx, localClose) }

            let now = clock.now
            let (backedUp, abuse) = sendQueueState(ctx, now: now)
            if let abuse { return abuse }
            if let closeDeadline, now >= closeDeadline, let localClose {
                return .normal(code: localClose.code, reason: localClose.reason)
            }
            if now - lastReceive >= deadAfter { return .peerVanished }
            if localClose == nil, now - lastReceive >= pingEvery, now - lastPing >= pingEvery {
                if queue(ctx, opcode: WSLAY_PING, []) { stats.pingsSent += 1 }
                lastPing = now
                readable = false
                continue
            }
            if wantRead && !backedUp && (stoppedOnBudget || !leftover.isEmpty) {
                readable = true
                continue
            }
            var next = nextDeadline(lastPing: lastPing, closeDeadline: closeDeadline)
            var readNow = wantRead && !backedUp
            // Paced: a read that emptied the socket is followed by the next one `readPace`
            // later at the soonest, so a stream of small writes (an agent's pieces, a hundred
            // a second) is read a few writes at a time, each read waking this thread and the
            // decoder's once. A read stopped by its budget (a burst) is not paced (above).
            if readNow, let lastRead, lastRead + readPace > now {
                next = min(next, lastRead + readPace)
                readNow = false
            }
            switch transport.wait(read: readNow, write: wantWrite, wake: outbox.wake, timeout: seconds(until: next)) {
            case .ready(let r, _): readable = r
            case .woken, .timedOut: readable = false
            }
        }
    }

    /// Queues what the owner asked for since the last turn: its texts (none once closing) and
    /// a close, which starts the wait for the server's answering close.
    private func queueAsked(
        _ ctx: wslay_event_context_ptr, localClose: inout (code: UInt16, reason: String)?,
        closeDeadline: inout ContinuousClock.Instant?
    ) {
        let asked = outbox.take()
        for text in asked.texts where localClose == nil {
            if queue(ctx, opcode: WSLAY_TEXT_FRAME, Array(text.utf8)) { stats.messagesSent += 1 }
        }
        if localClose == nil, let close = asked.close {
            localClose = close
            closeDeadline = clock.now + .seconds(options.closeTimeout)
            var reason = Array(close.reason.utf8.prefix(120))
            while String(validating: reason, as: UTF8.self) == nil { reason.removeLast() }  // cut mid-character
            _ = wslay_event_queue_close(ctx, close.code, reason, reason.count)
        }
    }

    private func queue(_ ctx: wslay_event_context_ptr, opcode: wslay_opcode, _ payload: [UInt8]) -> Bool {
        var msg = wslay_event_msg(opcode: UInt8(opcode.rawValue), msg: nil, msg_length: payload.count)
        return payload.withUnsafeBufferPointer { buf in
            msg.msg = buf.baseAddress
            return wslay_event_queue_msg(ctx, &msg) == 0  // wslay copies the payload
        }
    }

    private func flush(_ deliver: ([Message]) -> Void) {
        guard !inbox.isEmpty else { return }
        let batch = inbox
        inbox.removeAll(keepingCapacity: true)
        deliver(batch)
    }

    /// Both directions are done: a close handshake, or wslay failed the connection itself.
    private func ended(_ ctx: wslay_event_context_ptr, _ localClose: (code: UInt16, reason: String)?)
        -> WebSocketCloseReason
    {
        if let localClose { return .normal(code: localClose.code, reason: localClose.reason) }
        if wslay_event_get_close_received(ctx) != 0 {
            return .normal(code: wslay_event_get_status_code_received(ctx), reason: peerReason)
        }
        return libraryClose(wslay_event_get_status_code_sent(ctx))
    }

    private func failed(_ ctx: wslay_event_context_ptr, _ rc: Int32, _ localClose: (code: UInt16, reason: String)?)
        -> WebSocketCloseReason
    {
        // A peer that sends its close frame and hangs up at once makes our reply fail: still a close.
        if wslay_event_get_close_received(ctx) != 0 || localClose != nil { return ended(ctx, localClose) }
        if wslay_event_get_close_sent(ctx) != 0 { return libraryClose(wslay_event_get_status_code_sent(ctx)) }
        if let transportFailure { return .transport(UntrustedText.clean(transportFailure)) }
        if textRepair.forbiddenLengthSeen {
            return .protocolError("the server announced a frame of 2^63 bytes or more, which RFC 6455 forbids")
        }
        return .transport("WebSocket library error \(rc)")
    }

    /// wslay closes by itself on a message over the cap (1009) and on protocol errors.
    private func libraryClose(_ code: UInt16) -> WebSocketCloseReason {
        switch code {
        case 1009:
            stats.oversizeRejected += 1
            return .messageTooBig
        case 1007:
            stats.malformedRejected += 1
            return .protocolError("invalid UTF-8 in a text message (closed with 1007)")
        default: return .protocolError("the server broke the WebSocket protocol (closed with \(code))")
        }
    }

    // MARK: wslay callbacks (run inside wslay_event_recv / wslay_event_send, on this thread)

    private static func from(_ user: UnsafeMutableRawPointer?) -> WebSocketSession {
        Unmanaged<WebSocketSession>.fromOpaque(user!).takeUnretainedValue()
    }

    /// What wslay reads: the socket's bytes with text payloads made valid UTF-8.
    private func wslayRecv(_ ctx: wslay_event_context_ptr?, _ buf: UnsafeMutablePointer<UInt8>?, _ len: Int) -> Int {
        guard let buf else { return -1 }
        while true {
            let held = textRepair.restoreCarry(into: buf, capacity: len)
            let n = receiveRaw(ctx, buf + held, len - held)
            if n <= 0 { return n }  // the held bytes stay held
            let pass = textRepair.filter(buf, count: held + n)
            stats.textBytesRepaired = textRepair.repairedBytes
            if pass > 0 { return pass }
        }
    }

    private func receiveRaw(_ ctx: wslay_event_context_ptr?, _ buf: UnsafeMutablePointer<UInt8>, _ len: Int) -> Int {
        guard readBudget > 0 else {
            stoppedOnBudget = true
            wslay_event_set_error(ctx, Int32(WSLAY_ERR_WOULDBLOCK.rawValue))
            return -1
        }
        // wslay queues a pong for every ping inside this same recv call: checked per read
        // (at most one buffer of frames), so the queue can pass its bound by one read at most.
        if let ctx, sendQueueOverBound(ctx) {
            stats.readsPausedForSendQueue += 1
            wslay_event_set_error(ctx, Int32(WSLAY_ERR_WOULDBLOCK.rawValue))
            return -1
        }
        if !leftover.isEmpty {
            let n = min(len, leftover.count)
            leftover.prefix(n).withUnsafeBufferPointer { buf.update(from: $0.baseAddress!, count: n) }
            leftover = leftover.dropFirst(n)
            return n
        }
        switch transport.receive(into: buf, count: min(len, readBudget)) {
        case .done(let n):
            lastReceive = clock.now
            readBudget -= n
            return n
        case let other:
            return notDone(ctx, other, hungUp: "the server hung up without a close frame")
        }
    }

    private func wslaySend(_ ctx: wslay_event_context_ptr?, _ data: UnsafePointer<UInt8>?, _ len: Int) -> Int {
        guard let data else { return -1 }
        switch transport.send(data, count: len) {
        case .done(let n):
            return n
        case let other:
            return notDone(ctx, other, hungUp: "the server hung up")
        }
    }

    /// Tells wslay why a read or write moved no bytes; always -1, as its callbacks expect.
    private func notDone(_ ctx: wslay_event_context_ptr?, _ result: WebSocketTransport.IOResult, hungUp: String) -> Int
    {
        switch result {
        case .done, .wouldBlock:  // callers return `.done` themselves; it never arrives here
            wslay_event_set_error(ctx, Int32(WSLAY_ERR_WOULDBLOCK.rawValue))
        case .closed:
            transportFailure = hungUp
            wslay_event_set_error(ctx, Int32(WSLAY_ERR_CALLBACK_FAILURE.rawValue))
        case .failed(let why):
            transportFailure = why
            wslay_event_set_error(ctx, Int32(WSLAY_ERR_CALLBACK_FAILURE.rawValue))
        }
        return -1
    }

    private func wslayMessage(_ arg: wslay_event_on_msg_recv_arg) {
        let bytes = UnsafeBufferPointer(start: arg.msg, count: arg.msg_length)
        switch UInt32(arg.opcode) {
        case WSLAY_BINARY_FRAME.rawValue where textRepair.messageWasText():
            // Text handed to wslay as binary (`WebSocketTextRepair`), made valid UTF-8 on the
            // way in; this validating decode is the one check, and keeps it certain.
            guard let text = String(validating: bytes, as: UTF8.self) else {
                stats.malformedRejected += 1
                return
            }
            inbox.append(.text(text))
            stats.messagesReceived += 1
            stats.bytesReceived += bytes.count
        case WSLAY_BINARY_FRAME.rawValue:
            inbox.append(.binary(Data(buffer: bytes)))
            stats.messagesReceived += 1
            stats.binaryMessagesReceived += 1
            stats.bytesReceived += bytes.count
        case WSLAY_CONNECTION_CLOSE.rawValue:
            peerReason = bytes.count > 2 ? UntrustedText.clean(bytes: bytes.dropFirst(2)) : ""
        case WSLAY_PONG.rawValue:
            stats.pongsReceived += 1
        default:
            break
        }
    }
}

/// Mask keys must be unpredictable (RFC 6455 10.3).
private func wslayRandomBytes(_ buf: UnsafeMutablePointer<UInt8>?, _ len: Int) -> Int32 {
    guard let buf else { return -1 }
    return mk_random_bytes(buf, Int32(len)) == 1 ? 0 : -1
}
