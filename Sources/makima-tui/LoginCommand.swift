import MakimaKit

/// `makima-tui login [--name NAME] [--server URL] [--allow-insecure-http]`: checks the server
/// (`GET /api/v1/health`), then the key with an authenticated call, and stores it (key file
/// 0600) in the profile called NAME (added, or updated with its own key file and cache kept),
/// which becomes the active one. The server defaults to that profile's, else the stored one,
/// else https://makima.jp. The key is read from stdin (one line per try), never from the
/// command line; a key the server refuses is asked for again, three tries in all.
enum LoginCommand {
    static let spec = CommandSpec(
        name: "login",
        summary: "check an API key against a server (default https://makima.jp) and store it; key read from stdin",
        flags: [
            FlagSpec(
                "--name", value: "NAME", values: .profileName,
                help: "the profile to add or update (default: the one for that server)")
        ], positionals: nil, run: run)

    static let tries = 3

    static func run(_ inv: Invocation) async -> Int32 {
        let location = Session.location(inv.global)
        let store = AuthStore(location: location, environment: EnvironmentOverrides())
        let name = inv.values["--name"]
        if let name, let reason = ProfileName.problem(name) {
            return Console.fail(UsageError("'\(name)' cannot name a profile: \(reason)"))
        }
        let named = name.flatMap { store.config.profile(named: $0) }
        let base = named ?? store.profile
        let typed =
            inv.global.server ?? EnvironmentOverrides.process.serverURL ?? base?.baseURL.absoluteString
            ?? ServerURL.defaultServer
        let insecure = inv.global.allowInsecureHTTP || (base?.allowInsecureHTTP ?? false)
        // The server is checked before a secret is asked for.
        let server: SignInProbe.Server
        do { server = try await store.checkServer(typed, allowInsecureHTTP: insecure) } catch {
            if case .insecureHTTPNeedsConfirmation = error {
                Console.error("\(error.description) (confirm with --allow-insecure-http)")
                return ExitCode.of(error).rawValue
            }
            return Console.fail(error)
        }
        let url = server.url.absoluteString
        Console.error(
            "server \(url) answers\(server.version.map { " (\($0))" } ?? ""); keys are made at \(url)/settings")
        var last: SignInProblem?
        for attempt in 1...tries {
            let prompt = "API key for \(url) (input hidden): "
            guard let raw = KeyPrompt.read(prompt: prompt) else {
                if let last { return ExitCode.of(last).rawValue }
                return Console.fail(UsageError("no key entered"))
            }
            do {
                let profile = try await store.signIn(server: url, key: raw, allowInsecureHTTP: insecure, name: name)
                let shown = APIKey(raw)?.displayMasked ?? ""
                let which = name.map { " (profile \($0))" } ?? ""
                Console.out("logged in to \(profile.baseURL.absoluteString) with key \(shown)\(which)")
                return ExitCode.ok.rawValue
            } catch {
                switch error {
                case .wrongKey, .keyRevoked, .invalidKey:
                    last = error
                    Console.error(error.description + (attempt < tries ? " (try \(attempt) of \(tries))" : ""))
                default:
                    return Console.fail(error)
                }
            }
        }
        Console.error("no key was accepted after \(tries) tries")
        return ExitCode.unauthorized.rawValue
    }
}
