import Foundation
import TestSupport
import Testing

/// On a terminal whose locale is not UTF-8, the UTF-8 bytes of a character can be C1 controls
/// (`ĝ` is C4 9D; 9D starts an OSC): commands print ASCII only there, and UTF-8 elsewhere.
@Suite(.timeLimit(.minutes(2))) struct TerminalLocaleCLITests {
    /// `CLIRunner.run` on a thread of its own: the cooperative pool is not held while the
    /// child runs (other tests' timings depend on it).
    func run(_ args: [String], _ env: [String: String], home: String) async throws -> CLIRunner.Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try CLIRunner.run(args, environment: env, home: home) }) }
                .start()
        }
    }

    @Test func statusPrintsASCIIOnlyUnderANonUTF8Locale() async throws {
        let server = try DevServer()
        let home = TempDirectory()
        let env = [
            "MAKIMA_SERVER_URL": server.baseURL.absoluteString, "MAKIMA_API_KEY": server.apiKey.secret,
            "MAKIMA_CONFIG_DIR": home.sub("config"),
        ]
        let utf8 = try await run(["status", "--tmux"], env, home: home.path)
        #expect(utf8.status == 0, "stderr: \(utf8.stderr)")
        #expect(utf8.stdout.hasPrefix("MK ●"))

        for locale in ["C", "POSIX"] {
            var eightBit = env
            eightBit["LANG"] = locale
            let r = try await run(["status", "--tmux"], eightBit, home: home.path)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(r.stdout.hasPrefix("MK *"), "\(r.stdout)")
            #expect(r.stdout.utf8.allSatisfy { $0 < 0x80 }, "only ASCII under LANG=\(locale): \(r.stdout)")
            let json = try await run(["status", "--json"], eightBit, home: home.path)
            #expect(json.status == 0)
            #expect(json.stdout.utf8.allSatisfy { $0 < 0x80 })
            #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "still JSON")
            let human = try await run(["status"], eightBit, home: home.path)
            #expect(human.status == 0)
            #expect((human.stdout + human.stderr).utf8.allSatisfy { $0 < 0x80 })
        }
    }
}
