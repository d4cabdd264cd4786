import MakimaKit

/// `makima-tui status [--json | --tmux]`: the Home numbers, for scripts and tmux status lines.
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status", summary: "mesh summary: daemons, running tasks, contracts, questions, listen",
        flags: [
            FlagSpec("--json", help: "print one JSON object"),
            FlagSpec("--tmux", help: "print one short line for a tmux status bar (e.g. MK ●4/6 ▶3 ?1)"),
        ],
        positionals: nil, run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        if inv.has("--json") && inv.has("--tmux") { return Console.fail(UsageError("--json and --tmux cannot be used together")) }
        let tmux = inv.has("--tmux")
        do {
            let client = try Session.client(inv.global)
            let summary = try await MeshSummary.fetch(using: client)
            let server = client.profile.baseURL.absoluteString
            if inv.has("--json") {
                Console.out(StatusFormat.json(summary, server: server))
            } else if tmux {
                Console.out(StatusFormat.tmux(summary))
            } else {
                Console.out(StatusFormat.human(summary, server: server))
            }
            return ExitCode.ok.rawValue
        } catch {
            // tmux shows only stdout: leave a short marker there too.
            if tmux { Console.out(StatusFormat.tmuxFailure(ExitCode.of(error))) }
            return Console.fail(error)
        }
    }
}
