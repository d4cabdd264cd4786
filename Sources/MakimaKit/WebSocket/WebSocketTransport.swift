import CCurlShim
import Foundation

/// The byte pipe under a WebSocket: libcurl in CONNECT_ONLY mode (DNS, TCP, TLS with
/// certificate verification), then raw `curl_easy_send` / `curl_easy_recv` on a non-blocking
/// socket. Confined to one thread.
final class WebSocketTransport {
    enum IOResult: Equatable {
        case done(Int)
        case wouldBlock
        case closed
        case failed(String)
    }

    enum Readiness: Equatable {
        case ready(readable: Bool, writable: Bool)
        case woken
        case timedOut
    }

    private let curl: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private(set) var socket: curl_socket_t = -1
    /// Registered with `NetworkShutdown` for the handle's life: at exit the process waits for
    /// it (a cancel aborts a connect in progress).
    private let shutdownFlag = CancellationFlag()
    private let ticket: UInt64

    init?() {
        guard Curl.initializeOnce(), let ticket = TransferRegistry.shared.enter(shutdownFlag) else { return nil }
        guard let handle = curl_easy_init() else {
            TransferRegistry.shared.leave(ticket)
            return nil
        }
        self.ticket = ticket
        curl = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(curl)  // also closes the socket
        errorBuffer.deallocate()
        TransferRegistry.shared.leave(ticket)
    }

    /// What the progress callback looks at during the connect.
    private final class ConnectWatch {
        let outbox: WebSocketOutbox
        let shutdown: CancellationFlag
        init(outbox: WebSocketOutbox, shutdown: CancellationFlag) {
            self.outbox = outbox
            self.shutdown = shutdown
        }
        var shouldStop: Bool { outbox.isClosing || shutdown.isCancelled }
    }

    enum ConnectResult: Equatable {
        case connected
        /// `outbox.isClosing` became true during the connect.
        case aborted
        case failed(String)
    }

    func connect(to target: WebSocketTarget, options: WebSocketOptions, outbox: WebSocketOutbox) -> ConnectResult {
        // The same proxy and loopback policy as REST (ConnectionRoute): loopback never goes
        // through a proxy, and a plaintext upgrade (it carries the key) never goes through one.
        let route: ConnectionRoute
        guard let url = URL(string: target.curlURL) else { return .failed("not a URL: \(target.curlURL)") }
        do { route = try ConnectionRoute.plan(for: url, proxies: options.proxies) } catch {
            return .failed(error.description)
        }
        let ms = Int(max(options.connectTimeout, 0.001) * 1000)
        var rc = mk_curl_setopt_str(curl, CURLOPT_URL, target.curlURL)
        for (option, value) in [
            (CURLOPT_CONNECT_ONLY, 1), (CURLOPT_NOSIGNAL, 1), (CURLOPT_CONNECTTIMEOUT_MS, ms),
            (CURLOPT_HTTPPROXYTUNNEL, 1), (CURLOPT_SSL_VERIFYPEER, 1), (CURLOPT_SSL_VERIFYHOST, 2),
            (CURLOPT_NOPROGRESS, 0),
        ] where rc == CURLE_OK {
            rc = mk_curl_setopt_long(curl, option, value)
        }
        if rc == CURLE_OK { rc = mk_curl_setopt_ptr(curl, CURLOPT_ERRORBUFFER, errorBuffer) }
        if rc == CURLE_OK, let ca = options.caBundlePath { rc = mk_curl_setopt_str(curl, CURLOPT_CAINFO, ca) }
        let (routed, resolveList) = route.apply(to: curl)
        defer { curl_slist_free_all(resolveList) }
        if rc == CURLE_OK { rc = routed }
        // The progress callback runs during the connect: returning non-zero aborts it, so a
        // close() from another thread (or the process shutting down) does not wait out the
        // connect timeout.
        let progress:
            @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32 = {
                data, _, _, _, _ in
                guard let data else { return 0 }
                return Unmanaged<ConnectWatch>.fromOpaque(data).takeUnretainedValue().shouldStop ? 1 : 0
            }
        let watch = ConnectWatch(outbox: outbox, shutdown: shutdownFlag)
        if rc == CURLE_OK {
            rc = mk_curl_setopt_ptr(
                curl, CURLOPT_XFERINFOFUNCTION, unsafeBitCast(progress, to: UnsafeMutableRawPointer.self))
        }
        if rc == CURLE_OK {
            rc = mk_curl_setopt_ptr(curl, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(watch).toOpaque())
        }
        guard rc == CURLE_OK else { return .failed("curl setup failed: \(describe(rc))") }

        rc = withExtendedLifetime(watch) { curl_easy_perform(curl) }
        if rc == CURLE_ABORTED_BY_CALLBACK { return shutdownFlag.isCancelled ? .failed("shutting down") : .aborted }
        guard rc == CURLE_OK else { return .failed("connect failed: \(describe(rc))") }
        var fd: curl_socket_t = -1
        guard mk_curl_getinfo_socket(curl, &fd) == CURLE_OK, fd >= 0 else {
            return .failed("connect failed: no socket")
        }
        socket = fd
        return .connected
    }

    func send(_ bytes: UnsafeRawPointer, count: Int) -> IOResult {
        var sent = 0
        let rc = curl_easy_send(curl, bytes, count, &sent)
        switch rc {
        case CURLE_OK: return .done(sent)
        case CURLE_AGAIN: return .wouldBlock
        default: return .failed("send failed: \(describe(rc))")
        }
    }

    func receive(into buffer: UnsafeMutableRawPointer, count: Int) -> IOResult {
        var received = 0
        let rc = curl_easy_recv(curl, buffer, count, &received)
        switch rc {
        case CURLE_OK: return received == 0 ? .closed : .done(received)
        case CURLE_AGAIN: return .wouldBlock
        default: return .failed("receive failed: \(describe(rc))")
        }
    }

    /// Waits for the socket (the asked events) or the wake pipe, up to `timeout` seconds.
    /// A hang-up or error counts as readable: the next read reports it.
    func wait(read: Bool, write: Bool, wake: WebSocketWakePipe, timeout: TimeInterval) -> Readiness {
        var events: Int16 = 0
        if read { events |= Int16(POLLIN) }
        if write { events |= Int16(POLLOUT) }
        var fds = [
            pollfd(fd: socket, events: events, revents: 0), pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        let n = poll(&fds, 2, WebSocketWakePipe.pollMilliseconds(timeout))
        if n <= 0 { return .timedOut }  // EINTR included: the caller re-checks its deadlines
        if fds[1].revents != 0 {
            wake.drain()
            if fds[0].revents == 0 { return .woken }
        }
        let r = fds[0].revents
        let trouble = r & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
        return .ready(readable: r & Int16(POLLIN) != 0 || trouble, writable: r & Int16(POLLOUT) != 0 || trouble)
    }

    private func describe(_ rc: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(rc)) : detail
    }
}
