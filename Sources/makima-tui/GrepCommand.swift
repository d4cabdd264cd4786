import Foundation
import MakimaKit

/// `makima-tui grep PATTERN`: the cached output lines, titles and plans of every task holding
/// the pattern (as typed, case-insensitive), newest first, one `task-id<TAB>line-no<TAB>line`
/// per matching line (line 0: the title or plan). Exit 1 when nothing matches, as grep does.
/// Reads only the local cache: no network.
enum GrepCommand {
    static let spec = CommandSpec(
        name: "grep",
        summary: "search the cached output, titles and plans of every task (task-id<TAB>line-no<TAB>line)",
        flags: [], positionals: "PATTERN", run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        let pattern = inv.positionals.joined(separator: " ")
        guard !pattern.isEmpty else { return Console.fail(UsageError("grep needs a PATTERN")) }
        do {
            let (client, key) = try Session.credentials(inv.global)
            let hits = try search(pattern, profile: client.profile)
            for hit in hits { Console.out(line(hit, key: key)) }
            return hits.isEmpty ? ExitCode.noMatch.rawValue : ExitCode.ok.rawValue
        } catch {
            return Console.fail(error)
        }
    }

    /// One output line: the id, the line's number and the whole line, cleaned, on one line,
    /// the key masked.
    static func line(_ hit: OutputSearchHit, key: APIKey) -> String {
        let text = UntrustedText.clean(hit.line).replacingOccurrences(of: "\t", with: " ")
        return "\(hit.taskID)\t\(hit.lineNumber)\t\(SecretMask.mask(text, secret: key.secret, with: key.masked))"
    }

    private static func search(_ pattern: String, profile: ServerProfile) throws -> [OutputSearchHit] {
        let (store, notice) = CacheSession.open(for: profile)
        if let notice { Console.error(notice) }
        guard let store else { return [] }
        defer { store.close() }
        return try store.searchOutput(pattern)
    }
}
