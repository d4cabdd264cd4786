import Foundation
import Synchronization
import TestSupport
import Testing

/// `status` against a server whose certificate is not trusted: its five concurrent requests
/// fail in the TLS handshake one after the other, and the first failure ends the program while
/// the others may still be loading certificates. The program must cancel and wait for them
/// (`NetworkShutdown`) instead of running OpenSSL's exit-time clean-up under them, which
/// crashed it with SIGSEGV in a few runs out of a hundred.
@Suite(.timeLimit(.minutes(5))) struct ExitDuringTLSTests {
    static let runs = 30
    static let parallel = 2

    @Test func statusAgainstAnUntrustedCertificateNeverCrashesAtExit() async throws {
        let fixture = try WebSocketTLSTests.Fixture()
        let home = TempDirectory()
        let env = [
            "MAKIMA_SERVER_URL": "https://127.0.0.1:\(fixture.peer.port)",
            "MAKIMA_API_KEY": "mk_exit_tls_test_key_4b1e",
            "MAKIMA_CONFIG_DIR": home.sub("config"),
        ]
        let homePath = home.path
        // Plain threads, not the cooperative pool: each blocks on its child processes, and this
        // test only awaits the last one.
        let collected = Mutex<(results: [CLIRunner.Result], running: Int)>(([], Self.parallel))
        let results: [CLIRunner.Result] = await withCheckedContinuation { continuation in
            for _ in 0..<Self.parallel {
                Thread {
                    var mine: [CLIRunner.Result] = []
                    for _ in 0..<(Self.runs / Self.parallel) {
                        if let r = try? CLIRunner.run(["status"], environment: env, home: homePath) { mine.append(r) }
                    }
                    let all: [CLIRunner.Result]? = collected.withLock { c in
                        c.results += mine
                        c.running -= 1
                        return c.running == 0 ? c.results : nil
                    }
                    if let all { continuation.resume(returning: all) }
                }.start()
            }
        }
        #expect(results.count == Self.runs)
        let statuses = results.map(\.status)
        // 5: unreachable (the certificate is refused); a crash shows as the signal's number (11).
        #expect(statuses.allSatisfy { $0 == 5 }, "exit statuses: \(statuses)")
        #expect(results.allSatisfy { $0.stderr.contains("certificate") })
    }
}
