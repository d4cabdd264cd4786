import Foundation
import MakimaKit
import Synchronization

/// The Python dev server (devserver/server.py) as a child process, for integration tests.
///
/// Starts it on 127.0.0.1 with an ephemeral port, a database in a fresh temp directory,
/// `--rate 0` by default (nothing moves unless a test drives it) and `--test-controls`; waits
/// for its `READY http://…` line. `MAKIMA_DEVSERVER_SCRIPT` points at another script with the
/// same interface. Stop it with `stop()` (also done on release).
final class DevServer {
    struct StartFailure: Error, CustomStringConvertible { let description: String }

    static let defaultKey = "mk_demo_local_key_0001"
    static let readyTimeout: TimeInterval = 20

    let seed: Int
    let rate: Double
    let extra: [String]
    let apiKey: APIKey
    let workDir: String
    var dbPath: String { workDir + "/devserver.sqlite3" }
    var logPath: String { workDir + "/devserver.log" }
    private(set) var baseURL: URL
    private(set) var port: Int
    private var process: Process?

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static var script: String {
        if let s = ProcessInfo.processInfo.environment["MAKIMA_DEVSERVER_SCRIPT"], !s.isEmpty { return s }
        return packageRoot.appendingPathComponent("devserver/server.py").path
    }

    /// `extra`: more server flags (e.g. `["--seed-scale", "2500,50"]`).
    init(seed: Int = 7, rate: Double = 0, demoKey: String = DevServer.defaultKey, extra: [String] = []) throws {
        self.seed = seed
        self.rate = rate
        self.extra = extra
        apiKey = APIKey(demoKey)!
        workDir = NSTemporaryDirectory() + "makima-devserver-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
        baseURL = URL(string: "http://127.0.0.1")!
        port = 0
        try launch(port: 0)
    }

    deinit {
        stop()
        // `make test` keeps the logs for its check that no API key was ever written anywhere.
        if let keep = ProcessInfo.processInfo.environment["MAKIMA_TEST_LOG_DIR"], !keep.isEmpty {
            try? FileManager.default.copyItem(
                atPath: logPath, toPath: keep + "/devserver-" + URL(fileURLWithPath: workDir).lastPathComponent + ".log"
            )
        }
        try? FileManager.default.removeItem(atPath: workDir)
    }

    /// A profile for this server (loopback http is allowed without the flag).
    func profile() throws -> ServerProfile { try ServerProfile(server: baseURL.absoluteString) }

    func client(key: APIKey? = nil, configuration: HTTPConfiguration = HTTPConfiguration()) throws -> APIClient {
        APIClient(profile: try profile(), key: key ?? apiKey, transport: HTTPTransport(configuration: configuration))
    }

    /// Calls a `/_dev/*` test control (no key needed) and returns the body; non-2xx throws.
    @discardableResult
    func control(method: HTTPMethod = .post, path: String, query: [String: String] = [:]) throws -> Data {
        var comps = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty {
            comps.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        let response = try HTTPTransport().perform(HTTPRequest(method: method, url: comps.url!))
        guard response.isSuccess else {
            throw StartFailure(
                description:
                    "\(method.rawValue) \(path) answered \(response.status): \(String(decoding: response.body.prefix(300), as: UTF8.self))"
            )
        }
        return response.body
    }

    /// `control` decoded as a JSON object.
    func controlJSON(method: HTTPMethod = .post, path: String, query: [String: String] = [:]) throws -> [String: Any] {
        let data = try control(method: method, path: path, query: query)
        guard let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw StartFailure(description: "\(path) did not answer a JSON object")
        }
        return obj
    }

    /// Stops and starts again on the same database and, if it is free, the same port.
    func restart() throws {
        let previous = port
        stop()
        do { try launch(port: previous) } catch { try launch(port: 0) }
    }

    /// SIGTERM, then waits for the process to exit (SIGKILL if it ignores SIGTERM for 5 s).
    func stop() {
        guard let p = process else { return }
        process = nil
        let pid = p.processIdentifier
        p.terminate()
        // A watchdog, in case the server ignores SIGTERM; harmless once it has exited.
        let watchdog = Thread {
            for _ in 0..<50 where p.isRunning { usleep(100_000) }
            if p.isRunning { kill(pid, SIGKILL) }
        }
        watchdog.start()
        p.waitUntilExit()
    }

    private func launch(port wanted: Int) throws {
        let script = Self.script
        guard FileManager.default.fileExists(atPath: script) else {
            throw StartFailure(
                description: "dev server not found at \(script) (set MAKIMA_DEVSERVER_SCRIPT to use another)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments =
            [
                "python3", script, "--host", "127.0.0.1", "--port", String(wanted), "--db", dbPath,
                "--seed", String(seed), "--rate", String(rate), "--demo-key", apiKey.secret, "--test-controls",
            ] + extra
        p.currentDirectoryURL = Self.packageRoot
        var env = ProcessInfo.processInfo.environment
        env["PYTHONUNBUFFERED"] = "1"
        p.environment = env
        let stdout = Pipe.closedOnExec()
        p.standardOutput = stdout
        if !FileManager.default.fileExists(atPath: logPath) {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        p.standardError = log
        p.standardInput = FileHandle.nullDevice
        let reader = ReadyLineReader(stdout.fileHandleForReading)
        try SignalSafeSpawn.run(p)
        try? log.close()
        guard let url = reader.waitForReady(timeout: Self.readyTimeout) else {
            if p.isRunning { p.terminate() }
            p.waitUntilExit()
            let tail = (try? String(contentsOfFile: logPath, encoding: .utf8))?.suffix(1500) ?? ""
            throw StartFailure(
                description:
                    "dev server gave no READY line within \(Int(Self.readyTimeout)) s (exit \(p.isRunning ? -1 : p.terminationStatus)); stdout: \(reader.output.prefix(500)); log tail: \(tail)"
            )
        }
        process = p
        baseURL = url
        port = url.port ?? 0
    }
}

/// Reads the server's stdout on its own thread for as long as the process lives (so the pipe
/// never fills) and reports the URL of the first `READY http://…` line.
private final class ReadyLineReader: Sendable {
    private let state = Mutex<(text: String, url: URL?, closed: Bool)>(("", nil, false))
    private let signal = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var signalled = false
            while true {
                let chunk = handle.availableData
                let done: Bool = state.withLock { s in
                    if chunk.isEmpty {
                        s.closed = true
                        return true
                    }
                    if s.text.utf8.count < 65536 { s.text += String(decoding: chunk, as: UTF8.self) }
                    if s.url == nil, let line = s.text.split(separator: "\n").first(where: { $0.hasPrefix("READY ") }) {
                        s.url = URL(
                            string: line.dropFirst("READY ".count).trimmingCharacters(in: .whitespacesAndNewlines))
                    }
                    return false
                }
                if !signalled && (done || state.withLock({ $0.url != nil })) {
                    signalled = true
                    signal.signal()
                }
                if done { return }
            }
        }
        thread.name = "devserver-stdout"
        thread.start()
    }

    var output: String { state.withLock { $0.text } }

    func waitForReady(timeout: TimeInterval) -> URL? {
        _ = signal.wait(timeout: .now() + timeout)
        return state.withLock { $0.url }
    }
}
