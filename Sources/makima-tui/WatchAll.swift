import Foundation
import MakimaKit

/// `watch --all`: one watch per stored profile, each on a thread of its own with its own
/// stored key, cache and sync engine (never MAKIMA_API_KEY: one key from the environment must
/// not go to every server), every line and notification starting with `[name]`. A mesh whose
/// server refuses its key stops alone, said on stderr; the command ends at SIGINT/SIGTERM, or
/// when every mesh has stopped (exit 4 if every one was refused).
enum WatchAll {
    /// Bound on the meshes watched at once (each holds a WebSocket, a cache and threads).
    static let maxMeshes = 16

    static func run(_ inv: Invocation) async -> Int32 {
        if inv.global.profile != nil || inv.global.server != nil {
            return Console.fail(UsageError("--all watches every profile; --profile and --server choose one"))
        }
        let location = Session.location(inv.global)
        let config: AppConfig
        do { config = try ConfigStore(location: location).load() } catch { return Console.fail(error) }
        let credentials = CredentialStore(location: location)
        let meshes = config.profiles.compactMap { profile -> (String, APIClient, APIKey)? in
            guard let (client, key) = try? MeshProfiles.access(for: profile, credentials: credentials) else {
                Console.error("[\(profile.label)] no key stored; not watched")
                return nil
            }
            return (profile.label, client, key)
        }
        guard !meshes.isEmpty else { return Console.fail(ConfigError.notConfigured) }
        if meshes.count > maxMeshes {
            Console.error("watching the first \(maxMeshes) of \(meshes.count) profiles")
        }
        let notify = inv.has("--notify")
        let preferences = config.notificationPreferences
        let stop = StopSignal()
        let codes = await withTaskGroup(of: Int32.self) { group in
            for (name, client, key) in meshes.prefix(maxMeshes) {
                group.addTask {
                    do {
                        return try await onDedicatedThread("makima-watch") {
                            try WatchCommand.watch(
                                client: client, key: key, notify: notify, preferences: preferences, stop: stop,
                                mesh: name)
                        }
                    } catch {
                        Console.error("[\(name)] " + String(describing: error))
                        return ExitCode.of(error).rawValue
                    }
                }
            }
            var codes: [Int32] = []
            for await code in group { codes.append(code) }
            return codes
        }
        let refused = ExitCode.unauthorized.rawValue
        return codes.allSatisfy { $0 == refused } ? refused : ExitCode.ok.rawValue
    }
}
