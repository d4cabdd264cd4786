import Foundation
import MakimaKit
import Synchronization

/// The Python peer in Fixtures/ws_peer.py, started for one test on a loopback port 0.
final class WebSocketPeer: Sendable {
    /// One plain peer for every test that needs nothing special; it exits with the test
    /// process (its stdin closes).
    static let shared = Result { try WebSocketPeer() }

    let secure: Bool
    private let fixture: FixtureProcess
    var port: Int { fixture.port }

    init(certificate: (cert: String, key: String)? = nil) throws {
        fixture = try FixtureProcess(
            script: "ws_peer.py", arguments: certificate.map { ["--cert", $0.cert, "--key", $0.key] } ?? [])
        secure = certificate != nil
    }

    func url(_ pathAndQuery: String, host: String = "127.0.0.1") -> URL {
        URL(string: "\(secure ? "wss" : "ws")://\(host):\(port)\(pathAndQuery)")!
    }
}

/// Everything one `run` produced.
struct WebSocketRunResult: Sendable {
    var reason: WebSocketCloseReason
    var opened: Bool
    var texts: [String]
    var binaries: [Data]
    var stats: WebSocketStats
}

/// Runs the connection on its own Thread (never on the cooperative pool) and waits for the end.
/// `onText` sees each text and everything received before it. A watchdog closes with 4999
/// after `watchdog` seconds so a hang fails the test instead of stalling the suite.
func runOnThread(
    _ connection: WebSocketConnection,
    watchdog: TimeInterval = 20,
    onOpen: @escaping @Sendable (WebSocketConnection) -> Void = { _ in },
    onText: @escaping @Sendable (WebSocketConnection, [String]) -> Void = { _, _ in }
) async -> WebSocketRunResult {
    let dog = Thread {
        let deadline = Date().addingTimeInterval(watchdog)
        while Date() < deadline, !Thread.current.isCancelled { Thread.sleep(forTimeInterval: 0.05) }
        if !Thread.current.isCancelled { connection.close(code: 4999, reason: "test watchdog") }
    }
    dog.start()
    defer { dog.cancel() }
    return await withCheckedContinuation { continuation in
        let thread = Thread {
            var opened = false
            var texts: [String] = []
            var binaries: [Data] = []
            let reason = connection.run(
                onOpen: {
                    opened = true
                    onOpen(connection)
                },
                onText: {
                    texts.append($0)
                    onText(connection, texts)
                },
                onBinary: { binaries.append($0) }
            )
            continuation.resume(
                returning: WebSocketRunResult(
                    reason: reason, opened: opened, texts: texts, binaries: binaries, stats: connection.stats))
        }
        thread.name = "ws-test"
        thread.start()
    }
}

/// A value several threads append to and a test reads.
final class Recorder<Value: Sendable>: Sendable {
    private let items = Mutex<[Value]>([])
    func append(_ v: Value) { items.withLock { $0.append(v) } }
    var all: [Value] { items.withLock { $0 } }
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes (then false). For waiting
/// on another thread's progress, not for measuring time.
func eventually(timeout: TimeInterval = 15, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

/// A loopback port whose accept queue is full, so a new connect stalls in SYN_SENT: lets a
/// test interrupt a connect in progress without depending on outside networks.
final class StalledListener: Sendable {
    let port: Int
    private let fds: [Int32]

    struct Failure: Error {}

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, len) == 0 && getsockname(listener, $0, &len) == 0
            }
        }
        guard bound, listen(listener, 0) == 0 else {
            close(listener)
            throw Failure()
        }
        var all = [listener]
        // Linux queues backlog + 1 connections; a few more fill it for sure.
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            _ = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, len) }
            }
            all.append(filler)
        }
        Thread.sleep(forTimeInterval: 0.1)  // let the fillers' handshakes land in the queue
        port = Int(UInt16(bigEndian: addr.sin_port))
        fds = all
    }

    deinit { for fd in fds { close(fd) } }
}
