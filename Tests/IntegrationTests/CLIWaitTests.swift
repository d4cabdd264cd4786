import Foundation
import TestSupport
import Testing

/// `makima-tui wait` through the built binary against the dev server: it returns on a question
/// already waiting, on the status a task reaches while it waits, says a task that ended
/// otherwise (10), and gives up at its timeout (9) with nothing on stdout.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CLIWaitTests {
    let server: DevServer
    let home = TempDirectory()
    var env: [String: String] {
        [
            "MAKIMA_SERVER_URL": server.baseURL.absoluteString, "MAKIMA_API_KEY": server.apiKey.secret,
            "MAKIMA_CONFIG_DIR": home.sub("config"),
        ]
    }

    init() throws { server = try DevServer(seed: 31) }

    func wait(_ args: [String]) throws -> CLIRunner.Result {
        try CLIRunner.run(["wait"] + args, environment: env, home: home.path)
    }

    func newTask(_ title: String) throws -> String {
        let made = try server.controlJSON(path: "/_dev/task", query: ["title": title, "status": "running"])
        return try #require((made["task"] as? [String: Any])?["id"] as? String ?? made["id"] as? String)
    }

    /// Sets the task's status once the waiting process has read the task at least once (its
    /// GET is in the server's request log): the wait is then provably under way.
    func setStatusOnceRead(_ task: String, _ status: String) {
        // The thread only sends control requests (HTTP calls of their own) while the test waits.
        nonisolated(unsafe) let server = server
        Thread {
            let giveUp = Date().addingTimeInterval(60)
            while Date() < giveUp {
                let log = (try? server.controlJSON(method: .get, path: "/_dev/requests"))?["recent"] as? [String] ?? []
                if log.contains(where: { $0.hasPrefix("GET /api/v1/mesh/tasks/\(task)") }) { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            _ = try? server.controlJSON(path: "/_dev/task/\(task)/status", query: ["status": status])
        }.start()
    }

    @Test func aQuestionAlreadyWaitingEndsTheWaitAtOnceAndIsPrinted() throws {
        let plain = try wait(["--question"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let fields = plain.stdout.trimmingCharacters(in: .newlines).split(separator: "\t")
        #expect(fields.count == 3, "\(plain.stdout)")
        let json = try wait(["--question", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["directive_id"] as? String == fields.first.map(String.init))
        #expect(object?["question"] as? String == fields.last.map(String.init))
    }

    /// The seeded mesh has questions waiting: `--needs-you` returns at once with the oldest item
    /// by the dashboard's rules, as a line and as JSON; it goes alone.
    @Test func somethingAlreadyNeedingYouEndsTheWaitAtOnce() throws {
        let plain = try wait(["--needs-you", "--timeout", "60"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let fields = plain.stdout.trimmingCharacters(in: .newlines).split(
            separator: "\t", omittingEmptySubsequences: false)
        #expect(fields.count == 3, "\(plain.stdout)")
        #expect(["question", "gate", "failed", "offline"].contains(fields.first.map(String.init) ?? ""))
        let json = try wait(["--needs-you", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["id"] as? String == "\(fields[0]):\(fields[1])", "\(json.stdout)")
        let mixed = try wait(["--needs-you", "--question"])
        #expect(mixed.status == 2 && mixed.stdout.isEmpty)
    }

    @Test func aTaskReachingTheStatusWhileWaitedForEndsTheWait() throws {
        let task = try newTask("nightly build")
        _ = try server.controlJSON(path: "/_dev/requests/reset")
        setStatusOnceRead(task, "completed")
        let result = try wait(["--task", task, "--status", "completed", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["task_id"] as? String == task && object?["status"] as? String == "completed")
        #expect(object?["title"] as? String == "nightly build")
    }

    @Test func aTaskEndingOtherwiseIsSaidWithItsStatus() throws {
        let task = try newTask("flaky job")
        _ = try server.controlJSON(path: "/_dev/requests/reset")
        setStatusOnceRead(task, "failed")
        let result = try wait(["--task", task, "--status", "completed"])
        #expect(result.status == 10, "\(result.stderr)")
        #expect(result.stdout == "\(task)\tfailed\tflaky job\n")
    }

    @Test func theTimeoutEndsTheWaitWithNineAndNothingOnStdout() throws {
        let task = try newTask("never ends")
        let result = try wait(["--task", task, "--timeout", "1"])
        #expect(result.status == 9, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("did not reach done in time"))
    }

    @Test(arguments: [
        [String](), ["--task", "t", "--question"], ["--question", "--status", "failed"],
        ["--task", "t", "--status", "x"],
        ["--task", "t", "--timeout", "-1"], ["--task", "t", "--timeout", "nan"],
    ])
    func aWaitWithoutOneConditionIsAUsageError(args: [String]) throws {
        let result = try wait(args)
        #expect(result.status == 2, "\(args): \(result.stderr)")
    }
}
