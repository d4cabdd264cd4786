/// Completion scripts for bash, zsh and fish, made from the command table (`CLI.commands`,
/// `CommandLineParser.globalFlags`) like `--help` and the man page, so a new command or
/// option completes without touching them. `makima-tui --print-completion SHELL` writes one.
enum ShellCompletion {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash()
        case "zsh": zsh()
        case "fish": fish()
        default: nil
        }
    }

    static var commandNames: [String] { CLI.commands.map(\.name) }

    /// Profile names change after the script is installed, so the script asks for them.
    static let profileNamesCommand = "makima-tui profiles --names 2>/dev/null"

    /// The words a value completes with, or nil when it is free text or a path.
    static func words(_ values: ValueCompletion) -> [String]? {
        switch values {
        case .text, .directory, .profileName: nil
        case .words(let w), .wordsOrFile(let w): w
        case .commandName: commandNames
        }
    }

    static func flagNames(_ flags: [FlagSpec]) -> [String] {
        flags.flatMap { f in [f.name] + (f.short.map { [$0] } ?? []) }
    }

    /// Words for a shell's single-quoted string (none of ours holds a quote; one would be dropped).
    static func shellWords(_ words: [String]) -> String {
        words.map { $0.replacingOccurrences(of: "'", with: "") }.joined(separator: " ")
    }

    // MARK: bash

    static func bash() -> String {
        let valueFlags = flagNames(CommandLineParser.globalFlags.filter { $0.valueName != nil })
        var valueCases: [String] = []
        for flag in CommandLineParser.globalFlags + CLI.commands.flatMap(\.flags) where flag.valueName != nil {
            let names = ([flag.name] + (flag.short.map { [$0] } ?? [])).joined(separator: "|")
            guard !valueCases.contains(where: { $0.hasPrefix("        \(names))") }) else { continue }
            valueCases.append("        \(names)) " + bashValue(flag.values) + " return ;;")
        }
        let commandFlags = CLI.commands.map { c in
            "        \(c.name)) flags='\(shellWords(flagNames(c.flags)))'; args=\(bashArgs(c.positionalValues)) ;;"
        }
        return """
            # bash completion for makima-tui (written by makima-tui --print-completion bash)
            _makima_tui() {
                local cur prev cmd='' i
                cur=${COMP_WORDS[COMP_CWORD]}
                prev=${COMP_WORDS[COMP_CWORD-1]}
                case $prev in
            \(valueCases.joined(separator: "\n"))
                esac
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case ${COMP_WORDS[i]} in
                    \(valueFlags.joined(separator: "|"))) ((i++)) ;;
                    \(commandNames.joined(separator: "|"))) cmd=${COMP_WORDS[i]}; break ;;
                    esac
                done
                local global='\(shellWords(flagNames(CommandLineParser.globalFlags)))' flags='' args=''
                case $cmd in
            \(commandFlags.joined(separator: "\n"))
                esac
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W "$global $flags" -- "$cur"))
                elif [[ -z $cmd ]]; then
                    COMPREPLY=($(compgen -W '\(shellWords(commandNames))' -- "$cur"))
                else
                    COMPREPLY=($(compgen -W "$args" -- "$cur"))
                fi
            }
            complete -F _makima_tui makima-tui

            """
    }

    static func bashValue(_ values: ValueCompletion) -> String {
        switch values {
        case .text: "COMPREPLY=();"
        case .directory: "COMPREPLY=($(compgen -d -- \"$cur\"));"
        // The names are read as lines (`mapfile`), never as words for `compgen -W`, which
        // would expand what they hold (`$(…)`) as the shell completes.
        case .profileName:
            "local -a names; mapfile -t names < <(\(profileNamesCommand)); COMPREPLY=(); local n; "
                + "for n in \"${names[@]}\"; do [[ $n == \"$cur\"* ]] && COMPREPLY+=(\"$n\"); done;"
        case .wordsOrFile(let w): "COMPREPLY=($(compgen -W '\(shellWords(w))' -- \"$cur\") $(compgen -f -- \"$cur\"));"
        case .words, .commandName: "COMPREPLY=($(compgen -W '\(shellWords(words(values) ?? []))' -- \"$cur\"));"
        }
    }

    static func bashArgs(_ values: ValueCompletion) -> String {
        "'" + shellWords(words(values) ?? []) + "'"
    }

    // MARK: zsh

    static func zsh() -> String {
        let globals = CommandLineParser.globalFlags.map(zshSpec)
        let commands = CLI.commands.map { "    '\($0.name):\(zshText($0.summary))'" }
        let cases = CLI.commands.map { c -> String in
            let specs =
                c.flags.map(zshSpec) + (c.positionals == nil ? [] : ["'*:argument:\(zshAction(c.positionalValues))'"])
            return "        \(c.name)) _arguments -s $globals \(specs.joined(separator: " ")) ;;"
        }
        return """
            #compdef makima-tui
            # zsh completion for makima-tui (written by makima-tui --print-completion zsh)
            _makima_tui() {
                local -a commands globals
                commands=(
            \(commands.joined(separator: "\n"))
                )
                globals=(\(globals.joined(separator: " ")))
                local curcontext=$curcontext state line
                _arguments -C $globals '1: :->command' '*:: :->args'
                case $state in
                command) _describe -t commands 'makima-tui command' commands ;;
                args)
                    case $words[1] in
            \(cases.joined(separator: "\n"))
                    esac ;;
                esac
            }
            if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
                _makima_tui "$@"
            else
                compdef _makima_tui makima-tui
            fi

            """
    }

    static func zshSpec(_ flag: FlagSpec) -> String {
        let help = "[" + zshText(flag.help) + "]"
        let value = flag.valueName.map { ":" + zshText($0) + ":" + zshAction(flag.values) } ?? ""
        let names = [flag.name] + (flag.short.map { [$0] } ?? [])
        return names.map { "'" + $0 + help + value + "'" }.joined(separator: " ")
    }

    static func zshAction(_ values: ValueCompletion) -> String {
        switch values {
        case .text: " "
        case .directory: "_directories"
        case .profileName: "{compadd -- ${(f)\"$(\(profileNamesCommand))\"}}"
        case .wordsOrFile(let w): "{_alternative \"words:word:(\(shellWords(w)))\" \"files:file:_files\"}"
        case .words, .commandName: "(" + shellWords(words(values) ?? []) + ")"
        }
    }

    /// Help text inside a zsh single-quoted spec: no quotes, and the brackets and colons
    /// `_arguments` reads as syntax escaped.
    static func zshText(_ s: String) -> String {
        var out = ""
        for ch in s where ch != "'" {
            if "[]:\\".contains(ch) { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    // MARK: fish

    static func fish() -> String {
        var lines = [
            "# fish completion for makima-tui (written by makima-tui --print-completion fish)",
            "complete -c makima-tui -f",
        ]
        let commands = shellWords(commandNames)
        for c in CLI.commands {
            lines.append(
                "complete -c makima-tui -n 'not __fish_seen_subcommand_from \(commands)' -a \(c.name) -d \(fishQuote(c.summary))"
            )
        }
        lines += CommandLineParser.globalFlags.map { fishFlag($0, condition: nil) }
        for c in CLI.commands {
            lines += c.flags.map { fishFlag($0, condition: "__fish_seen_subcommand_from \(c.name)") }
            if let args = words(c.positionalValues) {
                lines.append(
                    "complete -c makima-tui -n '__fish_seen_subcommand_from \(c.name)' -a '\(shellWords(args))'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func fishFlag(_ flag: FlagSpec, condition: String?) -> String {
        var line = "complete -c makima-tui"
        if let condition { line += " -n '\(condition)'" }
        line += " -l " + flag.name.dropFirst(2)
        if let short = flag.short { line += " -s " + short.dropFirst() }
        if flag.valueName != nil {
            switch flag.values {
            case .text: line += " -x"
            case .directory: line += " -x -a '(__fish_complete_directories)'"
            case .profileName: line += " -x -a '(\(profileNamesCommand))'"
            case .wordsOrFile(let w): line += " -r -F -a '\(shellWords(w))'"
            case .words, .commandName: line += " -x -a '\(shellWords(words(flag.values) ?? []))'"
            }
        }
        return line + " -d " + fishQuote(flag.help)
    }

    static func fishQuote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
