import Foundation
import TestSupport
import Testing

/// `watch --all` against two dev servers (each taking only its own key) and a profile whose
/// server is gone: a failure on each live mesh prints a line naming that mesh, and the dead
/// one does not stop the others.
@Suite(.timeLimit(.minutes(4))) struct WatchAllTests {
    @Test func everyMeshNotifiesUnderItsName() async throws {
        let staging = try DevServer(seed: 11, demoKey: "mk_profile_staging_0001")
        let prod = try DevServer(seed: 12, demoKey: "mk_profile_prod_00000002")
        let dead = try DevServer(demoKey: "mk_profile_dead_00000003")
        let s = CLITests.Session()
        for (name, server) in [("staging", staging), ("prod", prod), ("dead", dead)] {
            let login = try s.run(
                ["login", "--name", name, "--server", server.baseURL.absoluteString],
                stdin: server.apiKey.secret + "\n")
            #expect(login.status == 0, "stderr: \(login.stderr)")
        }
        dead.stop()
        let watch = try WatchProcess(arguments: ["watch", "--all"], environment: [:], dir: s.dir)
        defer { watch.stop() }
        // A failure from before a mesh subscribed goes unnotified, so each server fails a task
        // every two seconds until a line for one of them shows.
        var failed: [String: [String]] = ["staging": [], "prod": []]
        func shown(_ mesh: String) -> Bool {
            failed[mesh, default: []].contains { watch.shows("makima://task/\($0)\t[\(mesh)] Task failed") }
        }
        let deadline = Date().addingTimeInterval(150)
        while !(shown("staging") && shown("prod")) && Date() < deadline && watch.isRunning {
            for (mesh, server) in [("staging", staging), ("prod", prod)] where !shown(mesh) {
                let task = try server.controlJSON(path: "/_dev/task", query: ["title": mesh, "status": "failed"])
                failed[mesh, default: []].append(try #require(task["id"] as? String))
            }
            for _ in 0..<10 where !(shown("staging") && shown("prod")) { try await Task.sleep(for: .milliseconds(200)) }
        }
        let stderr = watch.errors
        #expect(shown("staging"), "watch printed: \(watch.printed) stderr: \(stderr)")
        #expect(shown("prod"), "watch printed: \(watch.printed) stderr: \(stderr)")
        #expect(watch.isRunning, "stderr: \(stderr)")
        // A staging task's line never names prod (the servers have different seeds, so different ids).
        let lines = watch.printed.split(separator: "\n")
        for id in failed["staging", default: []] {
            #expect(lines.filter { $0.contains(id) }.allSatisfy { $0.contains("[staging]") })
        }
        for key in [staging.apiKey.secret, prod.apiKey.secret] {
            #expect(!watch.printed.contains(key) && !stderr.contains(key))
        }
    }
}
