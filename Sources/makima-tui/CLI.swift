import Foundation
import MakimaKit
import MakimaTUI

/// Dispatches the command line to a command. Every command returns its exit code.
enum CLI {
    static let commands: [CommandSpec] = [
        StatusCommand.spec,
        LogsCommand.spec,
        WatchCommand.spec,
        GrepCommand.spec,
        BenchCommand.spec,
        LoginCommand.spec,
        LogoutCommand.spec,
        HelpCommand.spec,
    ]

    static func run(_ args: [String]) async -> Int32 {
        // A developer entry point, not in the help: docs/keys.md is generated from the key map
        // (a test keeps them in step).
        if args == ["--print-keymap"] {
            FileHandle.standardOutput.write(Data(DashboardApp.keyMapMarkdown().utf8))
            return ExitCode.ok.rawValue
        }
        let inv: Invocation
        do { inv = try CommandLineParser.parse(args, commands: commands) } catch {
            return Console.fail(error)
        }
        if inv.wantsVersion {
            Console.out("makima-tui \(MakimaVersion.current)")
            return ExitCode.ok.rawValue
        }
        if inv.wantsHelp {
            Console.out(HelpCommand.text(for: inv.command))
            return ExitCode.ok.rawValue
        }
        guard let command = inv.command else {
            return await launchDashboard(DashboardLaunch(global: inv.global, deepLink: inv.positionals.last))
        }
        return await command.run(inv)
    }
}
