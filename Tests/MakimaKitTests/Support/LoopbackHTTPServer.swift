import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real TCP listener on 127.0.0.1 that answers each connection with canned bytes and
/// records what the client sent, so tests can check the exact request on the wire.
final class LoopbackHTTPServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let requests = Mutex<[String]>([])
    private let arrived = DispatchSemaphore(value: 0)

    /// `respond` gets the raw request (head and body) and returns the raw response bytes;
    /// nil means: keep the connection open and never answer (until `close()`).
    init(respond: @escaping @Sendable (String) -> Data?) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        // Children spawned by other tests must not inherit the listener.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            Glibc.close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = UInt16(bigEndian: addr.sin_port)
        listener = fd
        let thread = Thread { [self] in self.serve(respond) }
        thread.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The requests received so far.
    var received: [String] { requests.withLock { $0 } }

    /// Blocks until a request has arrived and returns the first one.
    func firstRequest() -> String {
        arrived.wait()
        arrived.signal()
        return received[0]
    }

    private let closed = Atomic<Bool>(false)

    /// Stops accepting. The serving thread closes the descriptor itself when it leaves: closed
    /// here, its number could be reused by another test's listener (tests run in parallel)
    /// while this thread still holds a connection, and its next accept would steal that
    /// test's connection.
    func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { close() }

    private func serve(_ respond: @Sendable (String) -> Data?) {
        defer { Glibc.close(listener) }
        while !closed.load(ordering: .relaxed) {
            let conn = accept(listener, nil, nil)
            // EINTR: other tests spawn processes, and their SIGCHLD lands on any thread.
            if conn < 0 { if errno == EINTR { continue } else { return } }
            _ = fcntl(conn, F_SETFD, FD_CLOEXEC)
            let request = Self.readRequest(conn)
            requests.withLock { $0.append(request) }
            arrived.signal()
            if let reply = respond(request) {
                reply.withUnsafeBytes { raw in
                    var off = 0
                    while off < raw.count {
                        let n = send(conn, raw.baseAddress! + off, raw.count - off, Int32(MSG_NOSIGNAL))
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        off += n
                    }
                }
                Glibc.close(conn)
            } else {
                // Hold the connection: wait until the client gives up (recv returns 0 or error).
                var b: UInt8 = 0
                while true {
                    let n = recv(conn, &b, 1, 0)
                    if n > 0 || (n < 0 && errno == EINTR) { continue }
                    break
                }
                Glibc.close(conn)
            }
        }
    }

    private static func readRequest(_ conn: Int32) -> String {
        var data = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(conn, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            data += buf[0..<n]
            let text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length { break }
            }
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A full HTTP/1.1 response with `Connection: close`.
    static func response(
        status: Int, reason: String = "X", headers: [String] = ["Content-Type: application/json"],
        body: String, contentLength: Bool = true
    ) -> Data {
        var head = "HTTP/1.1 \(status) \(reason)\r\n" + headers.map { $0 + "\r\n" }.joined()
        if contentLength { head += "Content-Length: \(body.utf8.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Data((head + body).utf8)
    }
}
