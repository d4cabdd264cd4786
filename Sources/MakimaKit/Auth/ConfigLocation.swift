import Foundation

/// Where configuration lives: `--config-dir` / init parameter, else `$MAKIMA_CONFIG_DIR`, else
/// `$XDG_CONFIG_HOME/makima-tui`, else `~/.config/makima-tui`.
///
/// Layout: `config.json` (profiles, active profile, settings) and `credentials/<credentialID>.key`
/// (one key per profile, mode 0600, in a 0700 directory).
public struct ConfigLocation: Sendable, Equatable {
    public let directory: String

    public init(directory: String) {
        var d = directory
        while d.count > 1 && d.hasSuffix("/") { d.removeLast() }
        self.directory = d
    }

    public static func resolve(
        explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ConfigLocation {
        if let e = explicit, !e.isEmpty { return ConfigLocation(directory: expandTilde(e, environment)) }
        if let e = environment["MAKIMA_CONFIG_DIR"], !e.isEmpty {
            return ConfigLocation(directory: expandTilde(e, environment))
        }
        if let x = environment["XDG_CONFIG_HOME"], x.hasPrefix("/") {
            return ConfigLocation(directory: x + "/makima-tui")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return ConfigLocation(directory: home + "/.config/makima-tui")
    }

    public var configFile: String { directory + "/config.json" }
    public var credentialsDirectory: String { directory + "/credentials" }

    private static func expandTilde(_ p: String, _ env: [String: String]) -> String {
        guard p == "~" || p.hasPrefix("~/") else { return p }
        let home = env["HOME"] ?? NSHomeDirectory()
        return home + p.dropFirst()
    }
}
