import MakimaKit

enum HelpCommand {
    static let spec = CommandSpec(name: "help", summary: "show help for a command", flags: [], positionals: "[COMMAND]")
    { inv in
        let target = inv.positionals.first.flatMap { name in CLI.commands.first { $0.name == name } }
        if let name = inv.positionals.first, target == nil {
            return Console.fail(UsageError("unknown command '\(name)'"))
        }
        Console.out(text(for: target))
        return ExitCode.ok.rawValue
    }

    static func text(for command: CommandSpec?) -> String {
        func flagLines(_ flags: [FlagSpec]) -> [String] {
            flags.map { f in
                let left = "  " + (f.short.map { $0 + ", " } ?? "") + f.name + (f.valueName.map { " " + $0 } ?? "")
                return left.padding(toLength: max(left.count + 2, 28), withPad: " ", startingAt: 0) + f.help
            }
        }
        if let c = command {
            var lines = [
                "usage: makima-tui \(c.name)\(c.flags.isEmpty ? "" : " [options]")\(c.positionals.map { " " + $0 } ?? "")",
                "", c.summary,
            ]
            if !c.flags.isEmpty { lines += ["", "options:"] + flagLines(c.flags) }
            lines += ["", "global options:"] + flagLines(CommandLineParser.globalFlags)
            return lines.joined(separator: "\n")
        }
        var lines = [
            "makima-tui \(MakimaVersion.current): terminal dashboard for a Makima mesh",
            "",
            "usage: makima-tui [global options] [makima://KIND/ID]   (KIND: task, directive, contract, listen)",
            "       makima-tui [global options] COMMAND [options]",
            "",
            "With no command the dashboard opens.",
            "",
            "commands:",
        ]
        lines += CLI.commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }
        lines += ["", "global options:"] + flagLines(CommandLineParser.globalFlags)
        lines += [
            "",
            "environment: MAKIMA_SERVER_URL, MAKIMA_API_KEY (this run only, never stored), MAKIMA_CONFIG_DIR",
            "exit codes: 0 ok, 2 usage, 3 not configured, 4 unauthorized, 5 unreachable, 6 server error,",
            "  7 not found (no such task)",
        ]
        return lines.joined(separator: "\n")
    }
}
