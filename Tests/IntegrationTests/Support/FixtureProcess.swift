import Foundation

/// A Python fixture from Fixtures/ that prints `READY <port>` once it listens and ends when its
/// stdin closes (so it never outlives the test that started it).
///
/// @unchecked Sendable: every property is set once in init and only read after (`Process` and
/// `Pipe` are not marked Sendable); the process ends in deinit.
final class FixtureProcess: @unchecked Sendable {
    let port: Int
    private let process = Process()
    private let stdin = Pipe.closedOnExec()

    struct StartFailure: Error, CustomStringConvertible { let description: String }

    init(script name: String, arguments: [String] = []) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let stdout = Pipe.closedOnExec()
        process.standardOutput = stdout
        process.standardInput = stdin
        try process.run()
        var line = Data()
        while true {
            let byte = stdout.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("READY "), let port = Int(text.dropFirst(6)) else {
            process.terminate()
            throw StartFailure(description: "\(name) did not start: \(text)")
        }
        self.port = port
    }

    deinit {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
