import MakimaKit

/// `makima-tui login --server URL [--allow-insecure-http]`: checks the key against the server
/// and stores it (key file 0600). The key is read from stdin, never from the command line.
enum LoginCommand {
    static let spec = CommandSpec(
        name: "login", summary: "check an API key against a server and store it (key read from stdin)",
        flags: [], positionals: nil, run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        let location = Session.location(inv.global)
        let store = AuthStore(location: location, environment: EnvironmentOverrides())
        guard
            let server = inv.global.server ?? EnvironmentOverrides.process.serverURL
                ?? store.profile?.baseURL.absoluteString
        else {
            return Console.fail(UsageError("login needs --server URL"))
        }
        do {
            // Check the URL before asking for a secret.
            _ = try ServerURL.normalize(
                server, allowInsecureHTTP: inv.global.allowInsecureHTTP || (store.profile?.allowInsecureHTTP ?? false))
        } catch {
            return Console.fail(error)
        }
        guard let raw = KeyPrompt.read(prompt: "API key for \(server) (input hidden): ") else {
            return Console.fail(UsageError("no key entered"))
        }
        if let reason = APIKey.validationError(raw) { return Console.fail(UsageError("invalid API key: \(reason)")) }
        guard let key = APIKey(raw) else { return Console.fail(UsageError("invalid API key")) }
        do {
            let profile = try await store.configure(
                server: server, key: key, allowInsecureHTTP: inv.global.allowInsecureHTTP)
            Console.out("logged in to \(profile.baseURL.absoluteString) with key \(key.masked)")
            return ExitCode.ok.rawValue
        } catch {
            return Console.fail(error)
        }
    }
}
