import Foundation
import MakimaKit

/// `makima-tui wait`: blocks until a condition holds on the mesh, prints what ended the wait
/// and exits 0; with `--timeout`, exits 9 when it has not held by then.
///
/// - `wait --task ID [--status completed|failed|cancelled|done]`: the task reaches that status (`done`,
///   the default: any final one). A task that ends with another final status can never meet
///   the condition: exit 10, its status said.
/// - `wait --question`: a supervisor question is waiting (at once if one already is).
///
/// Read over REST every two seconds (one light request); a failing server is asked again,
/// backing off up to 30 s, until the timeout; a refused key (4) or an unknown task (7) ends
/// the wait at once.
enum WaitCommand {
    static let spec = CommandSpec(
        name: "wait", summary: "wait until a task reaches a status or a question waits (exit 9 on --timeout)",
        flags: [
            FlagSpec("--task", value: "ID", help: "wait for this task"),
            FlagSpec(
                "--status", value: "STATUS", values: .words(statuses),
                help: "the status --task waits for: completed, failed, cancelled, or done (any final one, the default)"),
            FlagSpec("--question", help: "wait until a supervisor question is waiting"),
            FlagSpec(
                "--needs-you",
                help:
                    "wait until something needs you (a question, a gate ready, a recent failure, a daemon offline with tasks)"
            ),
            FlagSpec("--timeout", value: "SECONDS", help: "give up after this long (exit 9)"),
            .json,
        ],
        positionals: nil, run: run)

    static let statuses = ["completed", "failed", "cancelled", "done"]
    /// Between two reads; a failing server is asked at most this often, then less.
    static let interval: TimeInterval = 2
    static let longestBackoff: TimeInterval = 30
    static let longestTimeout: TimeInterval = 7 * 86_400

    enum Condition: Sendable {
        case task(id: String, status: String)
        case question
        /// Anything `NeedsYouRules` counts, less what was acknowledged (`x`) in this server's cache.
        case needsYou(acknowledged: Set<String>)
    }

    static func run(_ inv: Invocation) async -> Int32 {
        var condition: Condition
        let timeout: TimeInterval?
        do {
            (condition, timeout) = try parse(inv)
        } catch {
            return Console.fail(error)
        }
        let json = inv.has("--json")
        do {
            let (client, key) = try Session.credentials(inv.global)
            if case .needsYou = condition {
                // Read once: what the operator acknowledged in the dashboard (`x`) ends no wait.
                let kept = (try? CacheSession.reading(client.profile) { try $0.acknowledged() }) ?? nil
                condition = .needsYou(acknowledged: Set((kept ?? [:]).keys))
            }
            let waited = condition
            let deadline = timeout.map { Date().addingTimeInterval($0) }
            return try await onDedicatedThread("makima-wait") {
                try waitFor(waited, fetcher: MeshFetcher(client: client), deadline: deadline, json: json, key: key)
            }
        } catch {
            return Console.fail(error)
        }
    }

    static func parse(_ inv: Invocation) throws -> (Condition, TimeInterval?) {
        var timeout: TimeInterval?
        if let raw = inv.values["--timeout"] {
            guard let seconds = TimeInterval(raw), seconds.isFinite, seconds > 0, seconds <= longestTimeout else {
                throw UsageError("--timeout takes seconds, more than 0 and at most a week")
            }
            timeout = seconds
        }
        if inv.has("--needs-you") {
            guard inv.values["--task"] == nil, !inv.has("--question"), inv.values["--status"] == nil else {
                throw UsageError("--needs-you goes alone (not with --task, --status or --question)")
            }
            return (.needsYou(acknowledged: []), timeout)
        }
        switch (inv.values["--task"], inv.has("--question")) {
        case (let id?, false):
            guard !id.isEmpty else { throw UsageError("--task needs a task id") }
            let status = inv.values["--status"] ?? "done"
            guard statuses.contains(status) else {
                throw UsageError("--status is one of " + statuses.joined(separator: ", "))
            }
            return (.task(id: id, status: status), timeout)
        case (nil, true):
            if inv.values["--status"] != nil { throw UsageError("--status goes with --task") }
            return (.question, timeout)
        default:
            throw UsageError("wait takes --task ID, --question or --needs-you (one of them)")
        }
    }

    /// What one read says: keep waiting, or the exit code and what to print.
    enum Verdict {
        case waiting
        case done(Int32, line: String, json: [String: Any])
    }

    private static func waitFor(
        _ condition: Condition, fetcher: MeshFetcher, deadline: Date?, json: Bool, key: APIKey
    ) throws -> Int32 {
        var failures = 0
        while true {
            do {
                if case .done(let code, let line, let object) = try read(condition, fetcher) {
                    if json {
                        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                        Console.json(String(decoding: data, as: UTF8.self))
                    } else {
                        Console.out(SecretMask.mask(line, secret: key.secret, with: key.masked))
                    }
                    if code != 0 { Console.error("the task ended with another status than the one waited for") }
                    return code
                }
                failures = 0
            } catch let error as APIError where error.isUnauthorized || error == .notFound {
                throw error
            } catch let error as APIError {
                failures += 1
                if failures == 1 { Console.error("\(error.description); asking again") }
            }
            let pause = failures == 0 ? interval : min(longestBackoff, interval * pow(2, Double(failures - 1)))
            if let deadline {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return timedOut(condition) }
                Thread.sleep(forTimeInterval: min(pause, left))
                if deadline.timeIntervalSinceNow <= 0, failures > 0 { return timedOut(condition) }
            } else {
                Thread.sleep(forTimeInterval: pause)
            }
        }
    }

    private static func timedOut(_ condition: Condition) -> Int32 {
        switch condition {
        case .task(let id, let status): Console.error("task \(id) did not reach \(status) in time")
        case .question: Console.error("no question waited in time")
        case .needsYou: Console.error("nothing needed you in time")
        }
        return ExitCode.timedOut.rawValue
    }

    static func read(_ condition: Condition, _ fetcher: MeshFetcher) throws -> Verdict {
        switch condition {
        case .task(let id, let wanted):
            let task = try fetcher.task(id: id)
            let status = task.status
            guard status.isFinal else { return .waiting }
            let met = wanted == "done" || status.rawValue == wanted
            let title = UntrustedText.clean(task.title ?? "").replacingOccurrences(of: "\n", with: " ")
            return .done(
                met ? ExitCode.ok.rawValue : ExitCode.endedOtherwise.rawValue,
                line: "\(task.id)\t\(status.rawValue)\t\(title)",
                json: ["task_id": task.id, "status": status.rawValue, "title": title])
        case .question:
            let payload = try fetcher.list(.directives(pendingOnly: true))
            let waiting = (payload.items(as: Directive.self) ?? []).filter(\.hasPendingQuestion)
            guard let directive = waiting.first, let question = directive.pendingQuestion else { return .waiting }
            let text = UntrustedText.clean(question.text).replacingOccurrences(of: "\n", with: " ")
            let title = UntrustedText.clean(directive.title).replacingOccurrences(of: "\n", with: " ")
            var object: [String: Any] = [
                "directive_id": directive.id, "directive": title, "question_id": question.id, "question": text,
            ]
            if let task = question.taskID { object["task_id"] = task }
            return .done(ExitCode.ok.rawValue, line: "\(directive.id)\t\(question.id)\t\(text)", json: object)
        case .needsYou(let acknowledged):
            guard let item = try needsYou(fetcher).first(where: { !acknowledged.contains($0.id) }) else {
                return .waiting
            }
            let text = UntrustedText.clean(item.text).replacingOccurrences(of: "\n", with: " ")
            var object: [String: Any] = ["kind": item.kind.rawValue, "id": item.id, "text": text]
            if let link = item.link { object["link"] = link.description }
            if let since = item.since { object["since"] = RFC3339.format(since) }
            return .done(ExitCode.ok.rawValue, line: "\(item.kind.rawValue)\t\(item.subjectID)\t\(text)", json: object)
        }
    }

    /// What needs the operator now, oldest first, by the dashboard's rules: three light reads
    /// (the pending directives, the newest failed tasks, the daemons). A gate is known only
    /// from the live stream, which a script's wait does not open.
    static func needsYou(_ fetcher: MeshFetcher) throws -> [NeedsYouItem] {
        let questions = (try fetcher.list(.directives(pendingOnly: true)).items(as: Directive.self) ?? [])
        let failed = try fetcher.list(.newestFailedTasks).items(as: MeshTask.self) ?? []
        let daemons = try fetcher.list(.daemons).items(as: Daemon.self) ?? []
        let clock = fetcher.client.serverClock.offset
        let now = Date()
        let items =
            questions.compactMap { NeedsYouRules.question($0, clock: clock) }
            + failed.compactMap { NeedsYouRules.failure($0, clock: clock, now: now) }
            + daemons.compactMap { NeedsYouRules.offline($0, since: $0.lastHeartbeat.map(clock.local)) }
        return NeedsYouRules.ordered(items)
    }
}
