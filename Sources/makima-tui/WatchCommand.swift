import Foundation
import MakimaKit
import Synchronization

/// `makima-tui watch`: the sync engine without a screen. Keeps this server's cache warm (so
/// `status --cached` and the next dashboard start have fresh data) and prints one line per
/// notification (`makima://task/{id}  Task failed  <title>`) until interrupted.
enum WatchCommand {
    static let spec = CommandSpec(
        name: "watch",
        summary: "stream notifications (task completed/failed, questions) as lines; keeps the cache warm",
        flags: [], positionals: nil, run: run)

    static func run(_ inv: Invocation) async -> Int32 {
        do {
            let (client, key) = try Session.credentials(inv.global)
            return try await onDedicatedThread("makima-watch") { try watch(client: client, key: key) }
        } catch {
            return Console.fail(error)
        }
    }

    private static func watch(client: APIClient, key: APIKey) throws -> Int32 {
        let (cache, notice) = CacheSession.open(for: client.profile)
        if let notice { Console.error(notice) }
        let outbox = SyncOutbox()
        let engine = try SyncEngine(client: client, apiKey: key, cache: cache, outbox: outbox)
        engine.start()
        defer { engine.stop() }
        let stop = StopSignal()
        var nextPoll = Date.distantPast
        while !stop.requested {
            if Date() >= nextPoll {
                for query in MeshSummary.queries { engine.refresh(query) }
                nextPoll = Date().addingTimeInterval(30)
            }
            for update in outbox.wait(until: min(nextPoll, Date().addingTimeInterval(1))) {
                switch update {
                case .notifications(let list):
                    for n in list {
                        Console.out(
                            "\(n.link)\t\(n.title)\t\(n.body.split(whereSeparator: \.isNewline).joined(separator: " "))"
                        )
                    }
                case .unauthorized(let message):
                    Console.error(message)
                    return ExitCode.unauthorized.rawValue
                case .notice(let text):
                    Console.error(text)
                default:
                    break
                }
            }
        }
        return ExitCode.ok.rawValue
    }
}

/// SIGINT/SIGTERM ask a headless command to finish cleanly (the cache writer flushes).
final class StopSignal {
    private let sources: [DispatchSourceSignal]
    private let flag = StopFlag()

    init() {
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            let flag = self.flag
            s.setEventHandler { flag.set() }
            s.resume()
            sources.append(s)
        }
        self.sources = sources
    }

    var requested: Bool { flag.isSet }
}

final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}
