import MakimaTUI

/// Options that apply to every command (accepted before or after the command name).
struct GlobalOptions: Sendable {
    var server: String?
    /// `--profile NAME`: a stored profile for this run (MAKIMA_PROFILE does the same).
    var profile: String?
    var allowInsecureHTTP = false
    var configDir: String?
    /// Dashboard only: `--theme NAME|PATH` and `--color auto|always|never`.
    var theme: String?
    var color: String?
    /// Dashboard only: `--no-mouse`.
    var noMouse = false
}

/// One option a command takes: a switch (`--json`) or one with a value (`--limit N`).
struct FlagSpec: Sendable {
    let name: String
    let valueName: String?
    let help: String
    /// The one-letter form (`-f`), if any.
    let short: String?
    /// What the shell completions offer for the value.
    let values: ValueCompletion
    init(
        _ name: String, short: String? = nil, value: String? = nil, values: ValueCompletion = .text, help: String
    ) {
        self.name = name
        self.short = short
        valueName = value
        self.values = values
        self.help = help
    }

    /// `--json`, the same for every command that can answer in JSON.
    static let json = FlagSpec("--json", help: "print one JSON object")
}

/// What a shell may complete an option's value (or a command's arguments) with.
enum ValueCompletion: Sendable, Equatable {
    /// Anything: nothing is offered.
    case text
    /// One of these words.
    case words([String])
    /// A directory.
    case directory
    /// One of these words or a file.
    case wordsOrFile([String])
    /// A command's name (`help COMMAND`).
    case commandName
    /// A stored profile's name (asked of `makima-tui profiles --names` when completing).
    case profileName
}

/// A subcommand: its options and what it does. Adding one (`logs`, `bench`) is adding an entry
/// to `Commands.all`.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    let flags: [FlagSpec]
    /// Name of the positional arguments in help, nil when none are taken.
    let positionals: String?
    /// What the shell completions offer for the positional arguments.
    var positionalValues: ValueCompletion = .text
    let run: @Sendable (Invocation) async -> Int32
}

/// What the parser made of the arguments.
struct Invocation: Sendable {
    var global = GlobalOptions()
    var command: CommandSpec?
    var values: [String: String] = [:]
    var switches: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false
    var wantsVersion = false

    func has(_ flag: String) -> Bool { switches.contains(flag) }
}

enum CommandLineParser {
    static let globalFlags: [FlagSpec] = [
        FlagSpec("--server", value: "URL", help: "server to use for this run (default: the logged-in profile)"),
        FlagSpec(
            "--profile", value: "NAME", values: .profileName,
            help: "stored profile to use for this run (also MAKIMA_PROFILE; see `profiles`)"),
        FlagSpec("--allow-insecure-http", help: "allow plain http:// to a host that is not loopback"),
        FlagSpec(
            "--config-dir", value: "DIR", values: .directory,
            help: "configuration directory (default: $XDG_CONFIG_HOME/makima-tui)"),
        FlagSpec(
            "--theme", value: "NAME|PATH", values: .wordsOrFile(Theme.builtIn.map(\.name)),
            help: "dashboard theme: makima, high-contrast, light, or a .theme file (also MAKIMA_THEME)"),
        FlagSpec(
            "--color", value: "WHEN", values: .words(["auto", "always", "never"]),
            help: "auto (default), always, or never (attributes only; NO_COLOR does the same)"
        ),
        FlagSpec(
            "--no-mouse", help: "dashboard: no mouse reports (the terminal's own selection; also Settings › mouse)"),
        FlagSpec("--help", help: "show help"),
        FlagSpec("--version", help: "show the version"),
    ]
    static let shortFlags = ["-h": "--help", "-V": "--version"]

    static func parse(_ args: [String], commands: [CommandSpec]) throws(UsageError) -> Invocation {
        var inv = Invocation()
        inv.command = try command(in: args, commands: commands)
        // Options and positionals, now that the command's options are known wherever they appear.
        let allowed = globalFlags + (inv.command?.flags ?? [])
        var sawCommand = false
        var onlyPositionals = false
        var i = 0
        while i < args.count {
            var a = args[i]
            i += 1
            if onlyPositionals || !a.hasPrefix("-") || a == "-" {
                if !sawCommand, inv.command != nil, a == inv.command?.name {
                    sawCommand = true
                    continue
                }
                if inv.command == nil && !a.hasPrefix("makima://") { throw UsageError("unexpected argument '\(a)'") }
                if inv.command != nil && inv.command?.positionals == nil {
                    throw UsageError("\(inv.command!.name) takes no argument '\(a)'")
                }
                inv.positionals.append(a)
                continue
            }
            if a == "--" {
                onlyPositionals = true
                continue
            }
            if let long = shortFlags[a] ?? allowed.first(where: { $0.short != nil && $0.short == a })?.name { a = long }
            var inlineValue: String?
            if let eq = a.firstIndex(of: "=") {
                inlineValue = String(a[a.index(after: eq)...])
                a = String(a[..<eq])
            }
            guard let spec = allowed.first(where: { $0.name == a }) else {
                let scope = inv.command.map { " for \($0.name)" } ?? ""
                throw UsageError("unknown option '\(a)'\(scope) (see makima-tui --help)")
            }
            let value = try value(of: spec, inline: inlineValue, args: args, next: &i)
            try set(a, value: value, in: &inv)
        }
        return inv
    }

    /// The command named in `args`, found before the options are read so that its own options
    /// are known wherever they appear (a global option's value is not taken for a command).
    private static func command(in args: [String], commands: [CommandSpec]) throws(UsageError) -> CommandSpec? {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" { break }
            if a.hasPrefix("-") {
                let name = String(a.split(separator: "=", maxSplits: 1)[0])
                if !a.contains("="), globalFlags.first(where: { $0.name == name })?.valueName != nil { i += 1 }
            } else if !a.hasPrefix("makima://") {
                guard let spec = commands.first(where: { $0.name == a }) else {
                    throw UsageError("unknown command '\(a)' (see makima-tui --help)")
                }
                return spec
            }
            i += 1
        }
        return nil
    }

    /// The option's value: given after `=` or as the next argument (then `next` moves past it).
    private static func value(
        of spec: FlagSpec, inline: String?, args: [String], next i: inout Int
    ) throws(UsageError) -> String? {
        guard let valueName = spec.valueName else {
            if inline != nil { throw UsageError("\(spec.name) takes no value") }
            return nil
        }
        var value = inline
        if value == nil {
            guard i < args.count else { throw UsageError("\(spec.name) needs a value (\(valueName))") }
            value = args[i]
            i += 1
        }
        if value?.isEmpty != false { throw UsageError("\(spec.name) needs a non-empty value (\(valueName))") }
        return value
    }

    private static func set(_ flag: String, value: String?, in inv: inout Invocation) throws(UsageError) {
        switch flag {
        case "--server": inv.global.server = value
        case "--profile": inv.global.profile = value
        case "--allow-insecure-http": inv.global.allowInsecureHTTP = true
        case "--config-dir": inv.global.configDir = value
        case "--theme": inv.global.theme = value
        case "--color":
            guard let v = value, ["auto", "always", "never"].contains(v.lowercased()) else {
                throw UsageError("--color takes auto, always or never")
            }
            inv.global.color = v.lowercased()
        case "--no-mouse": inv.global.noMouse = true
        case "--help": inv.wantsHelp = true
        case "--version": inv.wantsVersion = true
        default:
            if let value { inv.values[flag] = value } else { inv.switches.insert(flag) }
        }
    }
}
