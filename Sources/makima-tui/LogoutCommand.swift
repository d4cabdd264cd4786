import MakimaKit

/// `makima-tui logout`: local sign-out (removes the stored key and profile; the key is not
/// revoked on the server).
enum LogoutCommand {
    static let spec = CommandSpec(
        name: "logout", summary: "remove the stored key and profile (local; the key is not revoked)",
        flags: [], positionals: nil, run: run)

    static func run(_ inv: Invocation) async -> Int32 {
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
}
