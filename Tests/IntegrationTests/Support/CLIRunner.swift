import Foundation
import Synchronization

/// Runs the built `makima-tui` binary as a child process, the way a user or script would.
enum CLIRunner {
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// `.build/debug/makima-tui` (swift test builds it), or beside the test bundle.
    static var binary: String {
        let candidates = [
            DevServer.packageRoot.appendingPathComponent(".build/debug/makima-tui").path,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "makima-tui"
            ).path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("makima-tui").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// Runs with a clean environment: only what is given (plus PATH, HOME pointed at `home`).
    static func run(_ args: [String], environment: [String: String] = [:], stdin: String? = nil, home: String) throws
        -> Result
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        var env = ["PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        p.environment = env
        let out = Pipe.closedOnExec()
        let err = Pipe.closedOnExec()
        let input = Pipe.closedOnExec()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Drain both pipes at once so neither can fill and block the child.
        let errData = DataBox()
        let errThread = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        errThread.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.wait(), as: UTF8.self))
    }
}

private final class DataBox: Sendable {
    private let data = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)
    func set(_ d: Data) {
        data.withLock { $0 = d }
        done.signal()
    }
    func wait() -> Data {
        done.wait()
        return data.withLock { $0 }
    }
}
