import Foundation
import MakimaKit

/// `makima-tui profiles [--json | --names]`: the stored profiles, one line each: its name, its
/// server, whether it is the active one and whether its key is stored. Reads only local files.
enum ProfilesCommand {
    static let spec = CommandSpec(
        name: "profiles", summary: "list the stored profiles (name, server, active, key stored)",
        flags: [
            .json,
            FlagSpec("--names", help: "print the names only, one per line (for shell completion)"),
        ],
        positionals: nil, run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        let store = AuthStore(location: Session.location(inv.global), environment: EnvironmentOverrides())
        if case .error(let message) = store.state { return Console.fail(UsageError(message)) }
        let config = store.config
        let rows = config.profiles.map { p in
            Row(
                name: p.label, server: p.baseURL.absoluteString,
                active: p.id == config.activeProfileID,
                keyStored: store.hasStoredKey(p))
        }
        if inv.has("--names") {
            if !rows.isEmpty { Console.out(rows.map(\.name).joined(separator: "\n")) }
        } else if inv.has("--json") {
            Console.json(json(rows))
        } else if rows.isEmpty {
            Console.out("no profiles: add one with `makima-tui login --name NAME --server URL`")
        } else {
            Console.out(table(rows))
        }
        return ExitCode.ok.rawValue
    }

    struct Row: Encodable {
        let name: String
        let server: String
        let active: Bool
        let keyStored: Bool

        enum CodingKeys: String, CodingKey {
            case name, server, active
            case keyStored = "key_stored"
        }
    }

    static func table(_ rows: [Row]) -> String {
        let width = max(4, rows.map(\.name.count).max() ?? 0)
        let serverWidth = max(6, rows.map(\.server.count).max() ?? 0)
        func line(_ mark: String, _ name: String, _ server: String, _ key: String) -> String {
            mark + " " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + server.padding(toLength: serverWidth, withPad: " ", startingAt: 0) + "  " + key
        }
        let header = line(" ", "NAME", "SERVER", "KEY")
        return
            ([header] + rows.map { line($0.active ? "*" : " ", $0.name, $0.server, $0.keyStored ? "stored" : "none") })
            .joined(separator: "\n")
    }

    static func json(_ rows: [Row]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(["profiles": rows])) ?? Data("{\"profiles\":[]}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
