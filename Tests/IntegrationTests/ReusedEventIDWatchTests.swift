import Foundation
import TestSupport
import Testing

/// A server that hands one event id to two tasks' events: task tb's failure under the id of
/// task ta's completion is still a notification of its own (events are known by task and
/// seq), printed by `watch` after ta's.
@Suite(.timeLimit(.minutes(4))) struct ReusedEventIDWatchTests {
    @Test func aFailureUnderAnotherTasksEventIDIsStillPrinted() async throws {
        let server = try DevServer()
        let watch = try WatchProcess(server: server)
        defer { watch.stop() }
        func shows(_ line: String) -> Bool { watch.shows(line) }
        // A completion from before watch subscribed goes unnotified, so: one completed task
        // every two seconds until one's line shows; its event id is the one reused.
        var reused: (task: String, eventID: Int)?
        let deadline = Date().addingTimeInterval(150)
        while reused == nil && Date() < deadline && watch.isRunning {
            let ta = try #require(
                try server.controlJSON(path: "/_dev/task", query: ["title": "first", "status": "running"])["id"]
                    as? String)
            let done = try server.controlJSON(path: "/_dev/task/\(ta)/status", query: ["status": "completed"])
            let eventID = try #require((done["event"] as? [String: Any])?["event_id"] as? Int)
            for _ in 0..<10 where !shows("makima://task/\(ta)\tTask completed") {
                try await Task.sleep(for: .milliseconds(200))
            }
            if shows("makima://task/\(ta)\tTask completed") { reused = (ta, eventID) }
        }
        let first = try #require(reused, "watch printed: \(watch.printed)")
        let tb = try #require(
            try server.controlJSON(path: "/_dev/task", query: ["title": "second", "status": "running"])["id"] as? String
        )
        let sent = try server.controlJSON(
            path: "/_dev/hostile/reused_event_id",
            query: ["task_id": tb, "event_id": "\(first.eventID)", "status": "failed", "reason": "reused id"])
        #expect(sent["event_id"] as? Int == first.eventID)
        let line = "makima://task/\(tb)\tTask failed"
        while !shows(line) && Date() < deadline && watch.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(shows(line), "watch printed: \(watch.printed)")
        let completions = watch.printed.components(separatedBy: "makima://task/\(first.task)\t").count - 1
        #expect(completions == 1, "ta's completion printed once")
    }
}
