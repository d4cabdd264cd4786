import MakimaKit
import MakimaTUI

/// makima-tui(1), in the man(7) macros, made from the tables `--help` and docs/keys.md are made
/// from (the commands and their options, the key map, the environment, the files, the exit
/// codes), so the three cannot drift apart. `makima-tui --print-manpage` writes it;
/// `make install` and `make deb` install what it writes.
enum ManPage {
    static func render() -> String {
        var page = [
            #".TH MAKIMA\-TUI 1 "" "makima-tui \#(MakimaVersion.current)" "User Commands""#,
            ".SH NAME", #"makima\-tui \- "# + text(CommandReference.summary),
            ".SH SYNOPSIS",
            #".B makima\-tui"#, #"[\fIglobal options\fR] [\fBmakima://\fIKIND\fB/\fIID\fR]"#, ".br",
            #".B makima\-tui"#, #"[\fIglobal options\fR] \fICOMMAND\fR [\fIoptions\fR]"#,
            ".SH DESCRIPTION",
            text(
                "A full-screen terminal dashboard for the operators of a Makima mesh: contracts, tasks with live "
                    + "output, daemons, directives with supervisor questions, listen transcripts. With no command "
                    + "the dashboard opens; a makima:// link (KIND: task, directive, contract, listen) opens it on "
                    + "that object. Started with nothing configured, it opens on sign-in."),
            ".SH COMMANDS",
        ]
        for command in CLI.commands {
            page += [".SS " + quoted(synopsis(command)), text(command.summary)]
            page += command.flags.flatMap(option)
        }
        page += [".SH GLOBAL OPTIONS"] + CommandLineParser.globalFlags.flatMap(option)
        page += [".SH KEYS", text(keysIntroduction)]
        let keys = KeyMap.standard
        for context in keys.contexts {
            page += [".SS " + quoted(context.title)]
            for binding in keys.bindings where binding.context == context {
                page += [".TP", #"\fB"# + text(binding.label) + #"\fR"#, text(binding.description)]
            }
        }
        page += [".SH ENVIRONMENT"] + CommandReference.environment.flatMap(entry)
        page += [".SH FILES"] + CommandReference.files.flatMap(entry)
        page += [".SH EXIT STATUS"]
        page += ExitCode.allCases.flatMap { [".TP", #"\fB\#($0.rawValue)\fR"#, text($0.meaning)] }
        page += [".SH SEE ALSO", #"\fBtmux\fR(1), \fBxdg\-open\fR(1)"#]
        page.insert(contentsOf: fallbacks(for: page), at: 1)
        return page.joined(separator: "\n") + "\n"
    }

    /// An ASCII look-alike for each character outside ASCII the page uses (the dashboard's own
    /// rule, `AsciiFallback`), for groff to draw where the output device has no such glyph (a
    /// terminal under LANG=C) instead of dropping it with a warning.
    static func fallbacks(for page: [String]) -> [String] {
        var seen = Set<Unicode.Scalar>()
        var lines: [String] = []
        for piece in page.joined(separator: "\n").components(separatedBy: #"\[u"#).dropFirst() {
            guard let end = piece.firstIndex(of: "]"), let value = UInt32(piece[..<end], radix: 16),
                let scalar = Unicode.Scalar(value), seen.insert(scalar).inserted
            else { continue }
            let ascii = AsciiFallback.transliterate(String(scalar))
            lines.append(#".if \n(.g .fchar "# + escape(scalar) + " " + text(ascii))
        }
        return lines
    }

    static let keysIntroduction =
        "A pane looks a key up in its own contexts first, then GLOBAL. The same table drives the footer, "
        + "the ? help overlay and docs/keys.md."

    static func synopsis(_ command: CommandSpec) -> String {
        "makima-tui \(command.name)" + (command.flags.isEmpty ? "" : " [options]")
            + (command.positionals.map { " " + $0 } ?? "")
    }

    static func option(_ flag: FlagSpec) -> [String] {
        let names = (flag.short.map { $0 + ", " } ?? "") + flag.name
        let value = flag.valueName.map { #" \fI"# + text($0) + #"\fR"# } ?? ""
        return [".TP", #"\fB"# + text(names) + #"\fR"# + value, text(flag.help)]
    }

    static func entry(_ entry: CommandReference.Entry) -> [String] {
        [".TP", #"\fB"# + text(entry.name) + #"\fR"#, text(entry.meaning)]
    }

    static func quoted(_ s: String) -> String { "\"" + text(s).replacingOccurrences(of: "\"", with: #"\(dq"#) + "\"" }

    /// Text as roff reads it literally: a backslash, a hyphen (which roff would take for a
    /// hyphenation point or a minus), a line starting with a control character, and anything
    /// outside ASCII (written as its code point, so no device or locale turns it to `?`).
    static func text(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += #"\e"#
            case "-": out += #"\-"#
            case "\n": out += " "
            case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
            default: out += escape(scalar)
            }
        }
        if let first = out.first, first == "." || first == "'" { out = #"\&"# + out }
        return out
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return #"\[u"# + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "]"
    }
}
