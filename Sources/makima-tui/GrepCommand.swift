import Foundation
import MakimaKit

/// `makima-tui grep PATTERN`: the cached output lines, titles and plans of every task holding
/// the pattern (as typed, case-insensitive), newest first, one `task-id<TAB>line-no<TAB>line`
/// per matching line (line 0: the title or plan). Exit 1 when nothing matches, as grep does.
/// With `-C N`, GNU grep's context form instead: each hit with N lines of its task's cached
/// output either side, `task-id:line-no:line` for a matching line, `task-id-line-no-line` for
/// context, `--` between groups that do not touch. Reads only the local cache: no network.
enum GrepCommand {
    /// The widest `-C`: a hit's window stays a screenful.
    static let maxContext = 50

    static let spec = CommandSpec(
        name: "grep",
        summary: "search the cached output, titles and plans of every task (task-id<TAB>line-no<TAB>line)",
        flags: [
            FlagSpec(
                "--context", short: "-C", value: "N",
                help:
                    "N lines of output around each hit (0 to \(maxContext)), as grep -n -C prints them (id:n:hit, id-n-context)"
            )
        ], positionals: "PATTERN", run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        let pattern = inv.positionals.joined(separator: " ")
        guard !pattern.isEmpty else { return Console.fail(UsageError("grep needs a PATTERN")) }
        let context: Int?
        do {
            context = try contextLines(inv)
        } catch {
            return Console.fail(error)
        }
        do {
            let (client, key) = try Session.credentials(inv.global)
            let found = try search(pattern, context: context, profile: client.profile)
            switch found {
            case .hits(let hits): for hit in hits { Console.out(line(hit, key: key)) }
            case .groups(let groups): for text in lines(groups, key: key) { Console.out(text) }
            }
            return found.isEmpty ? ExitCode.noMatch.rawValue : ExitCode.ok.rawValue
        } catch {
            return Console.fail(error)
        }
    }

    /// `-C N`'s N, nil without it.
    static func contextLines(_ inv: Invocation) throws(UsageError) -> Int? {
        guard let raw = inv.values["--context"] else { return nil }
        guard let n = Int(raw), (0...maxContext).contains(n) else {
            throw UsageError("--context (-C) takes a number of lines from 0 to \(maxContext), not '\(raw)'")
        }
        return n
    }

    /// One output line: the id, the line's number and the whole line, cleaned, on one line,
    /// the key masked.
    static func line(_ hit: OutputSearchHit, key: APIKey) -> String {
        "\(hit.taskID)\t\(hit.lineNumber)\t\(printable(hit.line, key: key))"
    }

    /// The groups as `grep -n -C` prints them: `:` after the id and number of a matching line,
    /// `-` after those of a context line, `--` between two groups.
    static func lines(_ groups: [OutputHitGroup], key: APIKey) -> [String] {
        var out: [String] = []
        for (i, group) in groups.enumerated() {
            if i > 0 { out.append("--") }
            for line in group.lines {
                let mark = line.isHit ? ":" : "-"
                out.append("\(group.taskID)\(mark)\(line.number)\(mark)\(printable(line.text, key: key))")
            }
        }
        return out
    }

    /// Server text as it may reach a terminal: cleaned, tabs folded to spaces, the key masked.
    private static func printable(_ text: String, key: APIKey) -> String {
        let clean = UntrustedText.clean(text).replacingOccurrences(of: "\t", with: " ")
        return SecretMask.mask(clean, secret: key.secret, with: key.masked)
    }

    private enum Found {
        case hits([OutputSearchHit])
        case groups([OutputHitGroup])

        var isEmpty: Bool {
            switch self {
            case .hits(let h): h.isEmpty
            case .groups(let g): g.isEmpty
            }
        }
    }

    private static func search(_ pattern: String, context: Int?, profile: ServerProfile) throws -> Found {
        let found = try CacheSession.reading(profile) { store -> Found in
            let hits = try store.searchOutput(pattern)
            guard let context else { return .hits(hits) }
            return .groups(try store.contextGroups(for: hits, context: context))
        }
        return found ?? .hits([])
    }
}
