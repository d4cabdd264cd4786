import Foundation
import MakimaKit

/// `makima-tui status [--json | --tmux]`: the Home numbers, for scripts and tmux status lines.
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status", summary: "mesh summary: daemons, running tasks, contracts, questions, listen",
        flags: [
            .json,
            FlagSpec("--tmux", help: "print one short line for a tmux status bar (e.g. MK ●4/6 ▶3 ?1)"),
            FlagSpec(
                "--cached", help: "answer from the local cache only, without the network (JSON adds \"stale_since\")"),
            FlagSpec("--all", help: "every stored profile's numbers (with --json: a list; with --tmux: one line)"),
        ],
        positionals: nil, run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        if inv.has("--json") && inv.has("--tmux") {
            return Console.fail(UsageError("--json and --tmux cannot be used together"))
        }
        if inv.has("--all") { return await StatusAll.run(inv) }
        let tmux = inv.has("--tmux")
        do {
            let client = try Session.client(inv.global)
            let server = client.profile.baseURL.absoluteString
            var staleSince: Date?
            let summary: MeshSummary
            if inv.has("--cached") {
                guard let cached = await cachedSummary(client.profile) else {
                    throw UsageError("nothing cached for \(server) yet (run the dashboard or `makima-tui watch` once)")
                }
                (summary, staleSince) = (cached.summary, cached.oldest)
            } else {
                summary = try await MeshSummary.fetch(using: client)
            }
            if inv.has("--json") {
                Console.json(
                    StatusFormat.json(
                        summary, server: server, staleSince: staleSince, activity: cachedActivity(client.profile)))
            } else if tmux {
                Console.out(StatusFormat.tmux(summary))
            } else {
                Console.out(StatusFormat.human(summary, server: server, serverClock: client.serverClock.offset))
            }
            return ExitCode.ok.rawValue
        } catch {
            // tmux shows only stdout: leave a short marker there too.
            if tmux { Console.out(StatusFormat.tmuxFailure(ExitCode.of(error))) }
            return Console.fail(error)
        }
    }

    /// The last hour's activity the cache recorded (nil without a cache).
    private static func cachedActivity(_ profile: ServerProfile) -> ActivityHistory? {
        (try? CacheSession.reading(profile) { try $0.activity(hours: 1) }) ?? nil
    }

    @MainActor
    private static func cachedSummary(_ profile: ServerProfile) -> (summary: MeshSummary, oldest: Date)? {
        (try? CacheSession.reading(profile) { CacheBridge(cache: $0).cachedSummary() }) ?? nil
    }
}
