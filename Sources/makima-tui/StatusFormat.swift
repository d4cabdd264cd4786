import Foundation
import MakimaKit

/// The three renderings of a `MeshSummary`. Server text was cleaned when decoded; here it is
/// also folded onto one line.
enum StatusFormat {
    static func json(_ s: MeshSummary, server: String, staleSince: Date? = nil, activity: ActivityHistory? = nil)
        -> String
    {
        encode(object(s, server: server, staleSince: staleSince, activity: activity))
    }

    static func encode(_ object: [String: Any]) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func object(_ s: MeshSummary, server: String, staleSince: Date? = nil, activity: ActivityHistory? = nil)
        -> [String: Any]
    {
        var latest: Any = NSNull()
        if let l = s.latestListenSession {
            latest =
                [
                    "id": l.id,
                    "title": l.title.map { oneLine($0) as Any } ?? NSNull(),
                    "started_at": l.startedAt.map { RFC3339.format($0) as Any } ?? NSNull(),
                ] as [String: Any]
        }
        var object: [String: Any] = [
            "server": server,
            "daemons_online": s.daemonsOnline,
            "daemons_offline": s.daemonsOffline,
            "running_tasks": s.runningTasks,
            "active_contracts": s.activeContracts,
            "pending_questions": s.pendingQuestions,
            "latest_listen_session": latest,
        ]
        if let staleSince { object["stale_since"] = RFC3339.format(staleSince) }
        if let activity {
            // What the cache saw in the last hour (the Home ACTIVITY// card's figures).
            let hour = activity.lastHour
            object["last_hour"] = [
                "output_events": hour.output, "tasks_completed": hour.completed, "tasks_failed": hour.failed,
                "output_per_minute": activity.outputPerMinute(),
            ]
        }
        return object
    }

    /// `MK ●online/total ▶running ?pending` (the question mark part only when there are some).
    static func tmux(_ s: MeshSummary) -> String {
        var line = "MK ●\(s.daemonsOnline)/\(s.daemonsOnline + s.daemonsOffline) ▶\(s.runningTasks)"
        if s.pendingQuestions > 0 { line += " ?\(s.pendingQuestions)" }
        return line
    }

    static func tmuxFailure(_ code: ExitCode) -> String {
        switch code {
        case .unauthorized: return "MK !auth"
        case .unreachable: return "MK !offline"
        case .notConfigured: return "MK !login"
        default: return "MK !error"
        }
    }

    /// Times are the server's read on our clock through `serverClock` (the JSON keeps the
    /// server's own, for scripts).
    static func human(_ s: MeshSummary, server: String, serverClock: ClockOffset) -> String {
        var lines = [
            "MAKIMA  \(server)",
            "daemons     \(s.daemonsOnline) online / \(s.daemonsOffline) offline",
            "running     \(s.runningTasks) task\(s.runningTasks == 1 ? "" : "s")",
            "contracts   \(s.activeContracts) active",
            "questions   \(s.pendingQuestions) pending",
        ]
        if let l = s.latestListenSession {
            let title = l.title.map(oneLine) ?? l.id
            let when = l.startedAt.map { " (started \(RFC3339.format(serverClock.local($0))))" } ?? ""
            lines.append("listen      \(title)\(when)")
        } else {
            lines.append("listen      none")
        }
        return lines.joined(separator: "\n")
    }

    private static func oneLine(_ s: String) -> String {
        UntrustedText.stripSGR(s).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
