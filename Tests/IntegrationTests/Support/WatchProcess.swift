import Foundation
import Synchronization
import TestSupport

/// `makima-tui watch` run against a dev server with its own config and cache in `dir`, its
/// stdout collected as it comes (stderr to `stderrFile`).
final class WatchProcess {
    let process = Process()
    let environment: [String: String]
    let stderrFile: String
    private let printed = Printed()

    /// The output so far, shared with the reading thread.
    private final class Printed: Sendable {
        let text = Mutex("")
    }

    init(server: DevServer, dir: TempDirectory) {
        environment = [
            "PATH": "/usr/bin:/bin", "HOME": dir.path, "LANG": "C.UTF-8", "MAKIMA_CONFIG_DIR": dir.sub("config"),
            "MAKIMA_CACHE_DIR": dir.sub("cache"), "MAKIMA_SERVER_URL": server.baseURL.absoluteString,
            "MAKIMA_API_KEY": server.apiKey.secret,
        ]
        stderrFile = dir.sub("watch-stderr")
    }

    /// Starts it and the thread that reads its output.
    func start() throws {
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = ["watch"]
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderrFile)
        let reader = Thread { [printed] in
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                printed.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
        try SignalSafeSpawn.run(process)
        reader.start()
    }

    /// What it printed so far.
    var output: String { printed.text.withLock { $0 } }
    var stderr: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

    /// Interrupts it (as Ctrl-C) and waits for its exit.
    func stop() {
        process.interrupt()
        process.waitUntilExit()
    }
}
