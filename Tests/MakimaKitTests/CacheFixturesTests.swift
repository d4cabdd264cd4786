import Foundation

@testable import MakimaKit

// Shared fixtures of the Cache*Tests suites (no tests in this file).

/// A fresh directory under the system temp dir, removed when released.
final class CacheTempDir {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "makima-cache-test-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var databaseFile: URL {
        url.appendingPathComponent("profile", isDirectory: true).appendingPathComponent("cache.sqlite")
    }

    /// What `CacheLocation` reads, pointing every profile under this directory.
    var environment: [String: String] { ["MAKIMA_CACHE_DIR": url.path, "HOME": url.path] }

    func entries(in dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }
}

enum CacheFixtures {
    static let t0 = Date(timeIntervalSince1970: 1_795_939_704)

    /// Output events for one task, seqs in order, with text that says which event it is.
    static func outputEvents(task: String, seqs: some Sequence<Int>, eventIDBase: Int64 = 0) -> [TaskEvent] {
        seqs.map { seq in
            TaskEvent(
                eventID: eventIDBase + Int64(seq), taskID: task, seq: seq, type: .output,
                ts: t0.addingTimeInterval(Double(seq)),
                payload: .output(text: expectedText(task: task, seq: seq), stream: "assistant"))
        }
    }

    static func expectedText(task: String, seq: Int) -> String { "\(task) line \(seq)\n" }

    static let daemons = [
        Daemon(
            id: "d1", hostname: "build-01", status: .online, lastHeartbeat: t0, version: "1.4.2", runningTasks: 2,
            maxConcurrentTasks: 4),
        Daemon(id: "d2", status: DaemonStatus(rawValue: "draining")),
    ]

    static let contracts = [
        Contract(
            id: "c1", name: "Ship the TUI", phase: "build", status: .active, autonomousLoop: true,
            description: "All of it", createdAt: t0, updatedAt: t0.addingTimeInterval(60)),
        Contract(id: "c2", name: "Old", phase: "done", status: .archived),
    ]

    static let tasks = [
        MeshTask(
            id: "t1", contractID: "c1", parentID: "t0", title: "Write the cache", plan: "# Plan\n- tables\n- tests",
            status: .running, daemonID: "d1", createdAt: t0, updatedAt: t0.addingTimeInterval(5), completedAt: nil),
        MeshTask(id: "t2", plan: "", status: .completed, completedAt: t0.addingTimeInterval(9.5)),
        MeshTask(id: "t3", status: TaskStatus(rawValue: "paused")),
    ]

    static let directives = [
        Directive(
            id: "r1", title: "Keep going", status: "active", hasPendingQuestion: true,
            pendingQuestion: SupervisorQuestion(id: "q1", text: "Merge now?", askedAt: t0, taskID: "t1"), updatedAt: t0),
        Directive(id: "r2", title: "Idle", status: "done"),
    ]

    static let listenSessions = [
        ListenSession(
            id: "l1", title: "Standup", startedAt: t0, endedAt: t0.addingTimeInterval(900),
            transcriptPreview: "We agreed…"),
        ListenSession(id: "l2", startedAt: t0.addingTimeInterval(1_000)),
    ]

    static let sessionDetail = ListenSession(
        id: "l1", title: "Standup", startedAt: t0, endedAt: t0.addingTimeInterval(900), transcriptPreview: "We agreed…",
        transcript: [TranscriptLine(speaker: "ana", text: "Cache first.", at: t0), TranscriptLine(text: "Agreed.")])
}

extension CacheCollection {
    /// Tasks kept as one kind's snapshots in `list_items`: the snapshot tests' items (a model
    /// with every kind of field). The dashboard keeps tasks in their own table (`TaskRows`).
    static let taskSnapshots = CacheCollection.shared("tasks")
}
