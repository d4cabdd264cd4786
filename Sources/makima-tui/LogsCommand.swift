import Foundation
import MakimaKit

/// `makima-tui logs [-f|--follow] TASK_ID`: the task's output as clean text (no control
/// sequences, no colours); `--follow` streams it live through the sync engine, across
/// reconnects, until the task reaches a final status. An unknown task exits 7 (not found).
enum LogsCommand {
    static let spec = CommandSpec(
        name: "logs", summary: "print a task's output; --follow streams it until the task ends",
        flags: [
            FlagSpec(
                "--follow", short: "-f",
                help: "keep streaming live output until the task completes, fails or is cancelled")
        ],
        positionals: "TASK_ID", run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        guard inv.positionals.count == 1, let taskID = inv.positionals.first else {
            return Console.fail(UsageError("logs takes exactly one TASK_ID"))
        }
        let follow = inv.has("--follow")
        do {
            let (client, key) = try Session.credentials(inv.global)
            return try await onDedicatedThread("makima-logs") {
                if follow { return try streamFollowing(taskID, client: client, key: key) }
                _ = try printHistory(taskID, fetcher: MeshFetcher(client: client))
                return ExitCode.ok.rawValue
            }
        } catch {
            return Console.fail(error)
        }
    }

    /// Prints every stored event of the task; returns the last seq and whether it has ended.
    private static func printHistory(_ taskID: String, fetcher: MeshFetcher) throws -> (lastSeq: Int, ended: Bool) {
        let task = try fetcher.task(id: taskID)
        var after = 0
        var ended = false
        while true {
            let page = try fetcher.outputPage(taskID: taskID, afterSeq: after, limit: 2000)
            let events = page.events.filter { $0.taskID == taskID && $0.seq > after }
            guard !events.isEmpty else { break }
            ended = write(events) || ended
            after = events.last!.seq
        }
        return (after, ended || task.status.isFinal)
    }

    private static func streamFollowing(_ taskID: String, client: APIClient, key: APIKey) throws -> Int32 {
        let history = try printHistory(taskID, fetcher: MeshFetcher(client: client))
        if history.ended { return ExitCode.ok.rawValue }
        let outbox = SyncOutbox()
        var options = SyncEngine.Options()
        options.onlyTasks = [taskID]
        let engine = try SyncEngine(
            client: client, apiKey: key, cache: nil, outbox: outbox, options: options,
            lastSeen: [taskID: history.lastSeq])
        engine.start()
        defer { engine.stop() }
        while true {
            for update in outbox.wait(until: Date().addingTimeInterval(5)) {
                switch update {
                case .events(let events):
                    if write(events.filter { $0.taskID == taskID }) { return ExitCode.ok.rawValue }
                case .unauthorized(let message):
                    Console.error(message)
                    return ExitCode.unauthorized.rawValue
                default:
                    break
                }
            }
        }
    }

    /// Writes output text; true when a final status went by.
    private static func write(_ events: [TaskEvent]) -> Bool {
        var text = ""
        var ended = false
        for e in events {
            switch e.payload {
            case .output(let t, _): text += UntrustedText.stripSGR(t)
            case .status(let s, _, _): ended = ended || s.isFinal
            default: break
            }
        }
        if !text.isEmpty { Console.write(text) }
        return ended
    }
}
