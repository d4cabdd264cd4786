import Foundation
import MakimaKit
import TestSupport
import Testing

/// A server that puts the key in ordinary text (a task title, an output line, a status reason,
/// whole or split by zero-width characters) never gets it printed by `status --json` or
/// `logs`, nor stored in the cache by `watch`.
@Suite(.timeLimit(.minutes(2))) struct KeyInServerTextCLITests {
    func run(_ args: [String], _ env: [String: String], home: String) async throws -> CLIRunner.Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try CLIRunner.run(args, environment: env, home: home) }) }
                .start()
        }
    }

    /// No piece of the key of 12 characters, with everything that draws nothing removed.
    static func holdsNoPiece(of secret: String, in text: String) -> Bool {
        let shown = SecretMask.removingInvisibles(text)
        let s = Array(secret)
        for start in 0...(s.count - 12) where shown.contains(String(s[start..<start + 12])) { return false }
        return true
    }

    @Test func theKeyInTitlesOutputAndReasonsIsNeverPrintedOrCached() async throws {
        let server = try DevServer()
        let home = TempDirectory()
        let secret = server.apiKey.secret
        let hidden = secret.enumerated().map {
            $0.offset > 0 && $0.offset % 6 == 0 ? "\u{180B}\($0.element)" : "\($0.element)"
        }
        .joined()
        let task = try server.controlJSON(path: "/_dev/task", query: ["title": "deploy \(hidden) now"])["id"] as! String
        _ = try server.control(
            path: "/_dev/hostile/output_text", query: ["task_id": task, "text": "token=\(secret)\n"])
        _ = try server.control(
            path: "/_dev/task/\(task)/status", query: ["status": "failed", "reason": "key \(hidden) revoked"])
        let env = [
            "MAKIMA_SERVER_URL": server.baseURL.absoluteString, "MAKIMA_API_KEY": secret,
            "MAKIMA_CONFIG_DIR": home.sub("config"), "MAKIMA_CACHE_DIR": home.sub("cache"),
        ]
        let status = try await run(["status", "--json"], env, home: home.path)
        #expect(status.status == 0, "stderr: \(status.stderr)")
        let logs = try await run(["logs", task], env, home: home.path)
        #expect(logs.status == 0, "stderr: \(logs.stderr)")
        #expect(logs.stdout.contains("token="), "the output line is there: \(logs.stdout)")
        for r in [status, logs] {
            #expect(Self.holdsNoPiece(of: secret, in: r.stdout + r.stderr), "\(r.stdout)\n\(r.stderr)")
        }

        // `watch` fills the cache; nothing in any of its files holds the key.
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        watch.arguments = ["watch"]
        watch.environment = env.merging(["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]) { $1 }
        watch.standardOutput = FileHandle.nullDevice
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }
        let cacheDir = URL(fileURLWithPath: home.sub("cache"))
        func cachedBytes() -> Data {
            var all = Data()
            let files = FileManager.default.enumerator(at: cacheDir, includingPropertiesForKeys: nil)
            while let f = files?.nextObject() as? URL { all += (try? Data(contentsOf: f)) ?? Data() }
            return all
        }
        // `watch` caches what arrives once it is running: the key again, in a new output line.
        var deadline = Date().addingTimeInterval(30)
        while Date() < deadline && !FileManager.default.fileExists(atPath: cacheDir.path) {
            try await Task.sleep(for: .milliseconds(200))
        }
        try await Task.sleep(for: .seconds(2))
        _ = try server.control(
            path: "/_dev/hostile/output_text", query: ["task_id": task, "text": "token=\(secret)\n"])
        deadline = Date().addingTimeInterval(30)
        while Date() < deadline && cachedBytes().range(of: Data("token=".utf8)) == nil {
            try await Task.sleep(for: .milliseconds(200))
        }
        watch.terminate()
        watch.waitUntilExit()
        let cached = cachedBytes()
        #expect(cached.range(of: Data("token=".utf8)) != nil, "watch cached the task's output")
        #expect(cached.range(of: Data(secret.prefix(12).utf8)) == nil)
        #expect(cached.range(of: Data(secret.suffix(12).utf8)) == nil)
    }
}
