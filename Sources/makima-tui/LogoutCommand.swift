import MakimaKit

/// `makima-tui logout [--name NAME]`: local sign-out (removes the stored key and profile, the
/// active one or the one called NAME; the key is not revoked on the server).
enum LogoutCommand {
    static let spec = CommandSpec(
        name: "logout", summary: "remove the stored key and profile (local; the key is not revoked)",
        flags: [
            FlagSpec(
                "--name", value: "NAME", values: .profileName, help: "the profile to remove (default: the active one)")
        ], positionals: nil, run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        if let name = inv.values["--name"] { return removeNamed(name, inv.global) }
        let store = AuthStore(
            location: Session.location(inv.global), environment: EnvironmentOverrides(),
            serverOverride: inv.global.server, allowInsecureHTTP: inv.global.allowInsecureHTTP)
        if case .error(let message) = store.state { return Console.fail(UsageError(message)) }
        guard let profile = store.profile, store.config.profiles.contains(where: { $0.id == profile.id }) else {
            Console.out("not logged in")
            return ExitCode.ok.rawValue
        }
        do {
            try store.signOut()
            Console.out("logged out of \(profile.baseURL.absoluteString)")
            return ExitCode.ok.rawValue
        } catch {
            return Console.fail(error)
        }
    }

    static func removeNamed(_ name: String, _ global: GlobalOptions) -> Int32 {
        let store = AuthStore(location: Session.location(global), environment: EnvironmentOverrides())
        if case .error(let message) = store.state { return Console.fail(UsageError(message)) }
        guard let profile = store.config.profile(named: name) else {
            return Console.fail(ConfigError.unknownProfile(name, known: store.config.profileNames))
        }
        do {
            try store.removeProfile(named: name)
            Console.out("removed profile \(name) (\(profile.baseURL.absoluteString))")
            return ExitCode.ok.rawValue
        } catch {
            return Console.fail(error)
        }
    }
}
