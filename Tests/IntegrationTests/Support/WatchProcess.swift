import Foundation
import Synchronization
import TestSupport

/// `makima-tui watch` against a dev server, its config and cache in a temp directory, what it
/// prints gathered as it comes; its stderr in a file for failure messages.
final class WatchProcess {
    let process = Process()
    let dir: TempDirectory
    /// What watch printed so far (filled on the reader thread).
    private final class Gathered: Sendable { let text = Mutex("") }
    private let gathered = Gathered()

    /// `watch` for the server and key in the environment, nothing stored.
    convenience init(server: DevServer) throws {
        let dir = TempDirectory()
        try self.init(
            arguments: ["watch"],
            environment: [
                "MAKIMA_SERVER_URL": server.baseURL.absoluteString, "MAKIMA_API_KEY": server.apiKey.secret,
            ], dir: dir)
    }

    /// `makima-tui ARGUMENTS` with its config and cache under `dir`, plus `environment`.
    init(arguments: [String], environment: [String: String], dir: TempDirectory) throws {
        self.dir = dir
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = arguments
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": dir.path, "LANG": "C.UTF-8", "MAKIMA_CONFIG_DIR": dir.sub("config"),
            "MAKIMA_CACHE_DIR": dir.sub("cache"),
        ].merging(environment) { _, given in given }
        let out = Pipe.closedOnExec()
        process.standardOutput = out
        _ = FileManager.default.createFile(atPath: dir.sub("watch-stderr"), contents: nil)
        process.standardError = FileHandle(forWritingAtPath: dir.sub("watch-stderr"))
        let gathered = self.gathered
        let reader = Thread {
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                gathered.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
        try SignalSafeSpawn.run(process)
        reader.start()
    }

    var printed: String { gathered.text.withLock { $0 } }
    var errors: String { (try? String(contentsOfFile: dir.sub("watch-stderr"), encoding: .utf8)) ?? "" }
    var isRunning: Bool { process.isRunning }
    /// Its environment (its config and cache), for another command on the same files.
    var environment: [String: String] { process.environment ?? [:] }
    func shows(_ text: String) -> Bool { printed.contains(text) }

    /// SIGINT, as an operator's Ctrl-C, and waits for the exit.
    func stop() {
        process.interrupt()
        process.waitUntilExit()
    }
}
