import Foundation
import TestSupport
import Testing

/// A server that sends a task id holding a newline could print a forged line in `watch`
/// (`t1` then `makima://task/fake  Task failed …`). Ids are tokens: that task never reaches
/// the output, and the genuine notifications still do.
@Suite(.timeLimit(.minutes(4))) struct ForgedIDWatchTests {
    static let forgedID = "t1\nmakima://task/fake\tTask failed\tforged"

    @Test func aTaskIdWithANewlineCannotForgeAWatchLine() async throws {
        let server = try DevServer()
        let watch = try WatchProcess(server: server)
        defer { watch.stop() }
        // A failure from before watch subscribed may go unnotified, so: a forged failed task,
        // then a genuine one, every two seconds, until a genuine task's line shows. A forged
        // one went first each time.
        var genuineIDs: [String] = []
        // Generous: on a loaded two-core machine (the whole suite in parallel) the child's start
        // and subscription have taken most of a minute.
        let deadline = Date().addingTimeInterval(150)
        func genuinePrinted() -> Bool {
            let text = watch.printed
            return genuineIDs.contains { text.contains("makima://task/\($0)\tTask failed") }
        }
        while !genuinePrinted() && Date() < deadline && watch.isRunning {
            let n = genuineIDs.count
            try server.control(
                path: "/_dev/task", query: ["id": "\(Self.forgedID)-\(n)", "title": "forged", "status": "failed"])
            let genuine = try server.controlJSON(path: "/_dev/task", query: ["title": "genuine", "status": "failed"])
            genuineIDs.append(try #require(genuine["id"] as? String))
            for _ in 0..<10 where !genuinePrinted() { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(genuinePrinted(), "watch printed: \(watch.printed) stderr: \(watch.errors)")
        let lines = watch.printed.split(separator: "\n")
        #expect(lines.allSatisfy { !$0.contains("fake") && !$0.hasPrefix("t1") }, "\(lines)")
    }
}
