import Foundation
import Synchronization
import TestSupport
import Testing

/// A server that hands one event id to two tasks' events: task tb's failure under the id of
/// task ta's completion is still a notification of its own (events are known by task and
/// seq), printed by `watch` after ta's.
@Suite(.timeLimit(.minutes(4))) struct ReusedEventIDWatchTests {
    @Test func aFailureUnderAnotherTasksEventIDIsStillPrinted() async throws {
        let server = try DevServer()
        let dir = TempDirectory()
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        watch.arguments = ["watch"]
        watch.environment = [
            "PATH": "/usr/bin:/bin", "HOME": dir.path, "LANG": "C.UTF-8", "MAKIMA_CONFIG_DIR": dir.sub("config"),
            "MAKIMA_CACHE_DIR": dir.sub("cache"), "MAKIMA_SERVER_URL": server.baseURL.absoluteString,
            "MAKIMA_API_KEY": server.apiKey.secret,
        ]
        let out = Pipe()
        watch.standardOutput = out
        watch.standardError = FileHandle.nullDevice
        let printed = Mutex("")
        let reader = Thread {
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                printed.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
        try SignalSafeSpawn.run(watch)
        reader.start()
        defer {
            watch.interrupt()
            watch.waitUntilExit()
        }
        func shows(_ line: String) -> Bool { printed.withLock { $0 }.contains(line) }
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
        let first = try #require(reused, "watch printed: \(printed.withLock { $0 })")
        let tb = try #require(
            try server.controlJSON(path: "/_dev/task", query: ["title": "second", "status": "running"])["id"] as? String
        )
        let sent = try server.controlJSON(
            path: "/_dev/hostile/reused_event_id",
            query: ["task_id": tb, "event_id": "\(first.eventID)", "status": "failed", "reason": "reused id"])
        #expect(sent["event_id"] as? Int == first.eventID)
        let line = "makima://task/\(tb)\tTask failed"
        while !shows(line) && Date() < deadline && watch.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(shows(line), "watch printed: \(printed.withLock { $0 })")
        let completions = printed.withLock { $0 }.components(separatedBy: "makima://task/\(first.task)\t").count - 1
        #expect(completions == 1, "ta's completion printed once")
    }
}
