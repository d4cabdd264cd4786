import Foundation
import MakimaKit

/// `status --all`: every stored profile's numbers, each mesh read with its own stored key
/// (never MAKIMA_API_KEY: one key from the environment must not go to every server), at most
/// four meshes at once. Exits 0 when every mesh answered, else with the first failure's code.
enum StatusAll {
    /// Meshes read at once: every stored one, up to this (a mesh waiting for a slot still
    /// counts its deadline from the start, so one that never answers costs its slot only).
    static let meshesAtOnce = 16
    /// How long a mesh has to answer: a status line for tmux is redrawn every few seconds.
    static let deadline = Duration.seconds(10)
    static let tmuxDeadline = Duration.seconds(3)

    struct Outcome {
        let name: String
        let server: String
        let result: Result<MeshSummary, Error>
        /// That mesh's clock against ours, measured by its requests.
        var serverClock = ClockOffset.zero
    }

    static func run(_ inv: Invocation) async -> Int32 {
        if inv.has("--cached") { return Console.fail(UsageError("--all reads every mesh; --cached reads one")) }
        if inv.global.profile != nil || inv.global.server != nil {
            return Console.fail(UsageError("--all reads every profile; --profile and --server choose one"))
        }
        let location = Session.location(inv.global)
        let config: AppConfig
        do { config = try ConfigStore(location: location).load() } catch { return Console.fail(error) }
        guard !config.profiles.isEmpty else { return Console.fail(ConfigError.notConfigured) }
        let outcomes = await read(
            config, credentials: CredentialStore(location: location),
            deadline: inv.has("--tmux") ? tmuxDeadline : deadline)
        if inv.has("--json") {
            Console.json(StatusFormat.encode(["profiles": outcomes.map(jsonObject)]))
        } else if inv.has("--tmux") {
            Console.out(tmuxLine(outcomes))
        } else {
            Console.out(outcomes.map(humanBlock).joined(separator: "\n\n"))
        }
        let failure = outcomes.lazy.compactMap { o -> Error? in if case .failure(let e) = o.result { e } else { nil } }
        return failure.first.map { ExitCode.of($0).rawValue } ?? ExitCode.ok.rawValue
    }

    /// Every profile's summary, in the config's order. Each mesh has until `deadline` to answer
    /// (counted from the start): one that accepts the connection and never answers, or sends a
    /// byte a second, is said late (`MeshTooSlow`) and does not hold up the others. Its request
    /// is left to its own timeouts on its own thread; the command exits without waiting for it.
    static func read(_ config: AppConfig, credentials: CredentialStore, deadline: Duration) async -> [Outcome] {
        let profiles = config.profiles
        var results = [Outcome?](repeating: nil, count: profiles.count)
        let (answers, answered) = AsyncStream<(Int, Outcome)?>.makeStream()
        let clock = Task {
            try? await Task.sleep(for: deadline)
            answered.yield(nil)
        }
        var next = 0
        func start() {
            guard next < profiles.count else { return }
            let (i, profile) = (next, profiles[next])
            next += 1
            Task.detached { answered.yield((i, await summary(of: profile, credentials: credentials))) }
        }
        for _ in 0..<meshesAtOnce { start() }
        var waiting = profiles.count
        for await answer in answers {
            guard let (i, outcome) = answer else { break }
            results[i] = outcome
            waiting -= 1
            if waiting == 0 { break }
            start()
        }
        clock.cancel()
        return profiles.indices.map { i in
            results[i]
                ?? Outcome(
                    name: profiles[i].label, server: profiles[i].baseURL.absoluteString,
                    result: .failure(MeshTooSlow(deadline: deadline)))
        }
    }

    static func summary(of profile: ServerProfile, credentials: CredentialStore) async -> Outcome {
        let name = profile.label
        let server = profile.baseURL.absoluteString
        do {
            let client = try MeshProfiles.client(for: profile, credentials: credentials)
            let summary = try await MeshSummary.fetch(using: client)
            return Outcome(
                name: name, server: server, result: .success(summary), serverClock: client.serverClock.offset)
        } catch {
            return Outcome(name: name, server: server, result: .failure(error))
        }
    }

    static func jsonObject(_ o: Outcome) -> [String: Any] {
        switch o.result {
        case .success(let summary):
            return StatusFormat.object(summary, server: o.server).merging(["profile": o.name]) { a, _ in a }
        case .failure(let error):
            return [
                "profile": o.name, "server": o.server, "error": UntrustedText.clean(String(describing: error)),
                "exit_code": Int(ExitCode.of(error).rawValue),
            ]
        }
    }

    /// `MK staging ▶3 ?1 · prod !offline`: each mesh's running tasks and questions, or why not.
    static func tmuxLine(_ outcomes: [Outcome]) -> String {
        "MK "
            + outcomes.map { o in
                switch o.result {
                case .success(let s):
                    o.name + " ▶\(s.runningTasks)" + (s.pendingQuestions > 0 ? " ?\(s.pendingQuestions)" : "")
                case .failure(let e) where e is MeshTooSlow: o.name + " !slow"
                case .failure(let e): o.name + " " + StatusFormat.tmuxFailure(ExitCode.of(e)).dropFirst(3)
                }
            }.joined(separator: " · ")
    }

    /// A mesh that had not answered by the deadline.
    struct MeshTooSlow: Error, CustomStringConvertible {
        let deadline: Duration
        var description: String { "no answer within \(deadline.components.seconds) s (the mesh is slow or hangs)" }
    }

    static func humanBlock(_ o: Outcome) -> String {
        switch o.result {
        case .success(let s): "[\(o.name)] " + StatusFormat.human(s, server: o.server, serverClock: o.serverClock)
        case .failure(let e):
            "[\(o.name)] MAKIMA  \(o.server)\nerror       " + UntrustedText.clean(String(describing: e))
        }
    }
}
