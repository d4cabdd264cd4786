import Foundation
import TestSupport
import Testing

/// A terminal that cannot place the cursor gets a sentence and an exit code of its own, not a
/// blank screen.
@Suite(.timeLimit(.minutes(2))) struct DumbTerminalCLITests {
    @Test func theDashboardOnTERMDumbSaysWhyAndExitsWithItsCode() async throws {
        let home = TempDirectory()
        let env = ["TERM": "dumb", "MAKIMA_CONFIG_DIR": home.sub("config")]
        let path = home.path
        let r = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try CLIRunner.run([], environment: env, home: path) }) }
                .start()
        }
        #expect(r.status == 8, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("TERM=dumb cannot move the cursor"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "nothing drawn: \(r.stdout.debugDescription)")
    }
}
