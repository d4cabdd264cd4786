import MakimaKit

enum HelpCommand {
    static let spec = CommandSpec(
        name: "help", summary: "show help for a command", flags: [], positionals: "[COMMAND]",
        positionalValues: .commandName
    ) { inv in
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
                row((f.short.map { $0 + ", " } ?? "") + f.name + (f.valueName.map { " " + $0 } ?? ""), f.help)
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
        lines += ["", "environment:"] + CommandReference.environment.map { row($0.name, $0.meaning) }
        lines += ["", "exit codes:"] + ExitCode.allCases.map { row("\($0.rawValue)", $0.meaning) }
        lines += ["", "The manual: man makima-tui (keys, files, environment)."]
        return lines.joined(separator: "\n")
    }

    /// One line of a two-column list: the name, then its meaning from the 28th column.
    static func row(_ name: String, _ meaning: String) -> String {
        let left = "  " + name
        return left.padding(toLength: max(left.count + 2, 28), withPad: " ", startingAt: 0) + meaning
    }
}
