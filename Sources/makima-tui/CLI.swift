import Foundation
import MakimaKit
import MakimaTUI

/// Dispatches the command line to a command. Every command returns its exit code.
enum CLI {
    static let commands: [CommandSpec] = [
        StatusCommand.spec,
        LogsCommand.spec,
        WatchCommand.spec,
        WaitCommand.spec,
        GrepCommand.spec,
        BenchCommand.spec,
        LoginCommand.spec,
        LogoutCommand.spec,
        ProfilesCommand.spec,
        HelpCommand.spec,
    ]

    static func run(_ args: [String]) async -> Int32 {
        if let text = generatedDocument(args) {
            FileHandle.standardOutput.write(Data(text.utf8))
            return ExitCode.ok.rawValue
        }
        let inv: Invocation
        do { inv = try CommandLineParser.parse(args, commands: commands) } catch {
            return Console.fail(error)
        }
        if inv.wantsVersion {
            Console.out(BuildInfo.versionLine)
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

    /// Entry points for the build, not in the help: docs/keys.md (a test keeps it in step), the
    /// man page and the shell completions `make install` and `make deb` install.
    static func generatedDocument(_ args: [String]) -> String? {
        switch args.first {
        case "--print-keymap" where args.count == 1: DashboardApp.keyMapMarkdown()
        case "--print-manpage" where args.count == 1: ManPage.render()
        case "--print-completion" where args.count == 2: ShellCompletion.script(for: args[1])
        default: nil
        }
    }
}
