import Foundation
import MakimaKit
import Synchronization

/// `makima-tui watch [--notify]`: the sync engine without a screen. Keeps this server's cache
/// warm (so `status --cached` and the next dashboard start have fresh data) and prints one line
/// per notification (`makima://task/{id}  Task failed  <task title> — <reason>`) until
/// interrupted. Titles come from the task lists it refreshes, or one `GET /mesh/tasks/{id}`
/// (at most `lookupsPerBatch` per batch, short timeout, a failed id never asked again).
/// `--notify` also sends desktop notifications, as the dashboard does (`DesktopNotifier`).
/// `--all` watches every stored profile at once (`WatchAll`), each line and notification
/// naming its mesh.
enum WatchCommand {
    static let spec = CommandSpec(
        name: "watch",
        summary: "stream notifications (task completed/failed, questions) as lines; keeps the cache warm",
        flags: [
            FlagSpec(
                "--notify",
                help: "also send desktop notifications (OSC 777/9 on this terminal, tmux-wrapped inside tmux; "
                    + "else notify-send)"),
            FlagSpec("--all", help: "watch every stored profile at once, each line naming its mesh"),
        ], positionals: nil, run: run)

    static let lookupsPerBatch = 4

    /// The one way this command starts a child (tmux, notify-send), shared by every mesh
    /// `--all` watches: one child at a time for the whole process.
    static let children = ChildLauncher(environment: ProcessInfo.processInfo.environment)

    static func run(_ inv: Invocation) async -> Int32 {
        if inv.has("--all") { return await WatchAll.run(inv) }
        do {
            let (client, key) = try Session.credentials(inv.global)
            let preferences =
                (try? ConfigStore(location: Session.location(inv.global)).load())?.notificationPreferences
                ?? NotificationPreferences()
            let notify = inv.has("--notify")
            let stop = StopSignal()
            return try await onDedicatedThread("makima-watch") {
                try watch(client: client, key: key, notify: notify, preferences: preferences, stop: stop)
            }
        } catch {
            return Console.fail(error)
        }
    }

    /// Watches one mesh until `stop` is requested or the server refuses the key. With a `mesh`
    /// name (`--all`), every line and notification title starts with it.
    static func watch(
        client: APIClient, key: APIKey, notify: Bool, preferences: NotificationPreferences, stop: StopSignal,
        mesh: String? = nil
    ) throws -> Int32 {
        let tag = mesh.map { "[\($0)] " } ?? ""
        var (engine, cache) = try startEngine(client: client, key: key, tag: tag)
        defer {
            engine.stop()
            cache?.close()
        }
        let notifier = notify ? desktopNotifier(preferences: preferences) : nil
        defer { notifier?.stop() }
        let lookups = APIClient(
            profile: client.profile, key: key,
            transport: HTTPTransport(
                configuration: HTTPConfiguration(connectTimeout: .seconds(5), totalTimeout: .seconds(5))))
        var titles = TaskTitleBook()
        var nextPoll = Date.distantPast
        var flushAt: Date?
        while !stop.requested {
            // A cache found damaged is replaced as the next start would replace it, without
            // waiting for one: the engine starts again on a fresh cache (said once on stderr).
            if cache?.foundDamage == true {
                engine.stop()
                cache?.close()
                (engine, cache) = try startEngine(client: client, key: key, tag: tag)
                nextPoll = .distantPast
            }
            if Date() >= nextPoll {
                for query in MeshSummary.queries { engine.refresh(query) }
                nextPoll = Date().addingTimeInterval(30)
            }
            if let at = flushAt, Date() >= at, let notifier {
                flushAt = deliver(notifier.flush(now: monotonic()))
            }
            let deadline = min(nextPoll, flushAt ?? .distantFuture, Date().addingTimeInterval(1))
            let updates = engine.outbox.wait(until: deadline)
            for update in updates { titles.learn(from: update) }
            for update in updates {
                switch update {
                case .notifications(let list):
                    let named = printNamed(list, titles: &titles, lookups: lookups, tag: tag)
                    if let notifier { flushAt = deliver(notifier.notify(named, now: monotonic())) ?? flushAt }
                case .unauthorized(let message):
                    Console.error(tag + message)
                    return ExitCode.unauthorized.rawValue
                case .notice(let text):
                    Console.error(tag + text)
                default:
                    break
                }
            }
        }
        return ExitCode.ok.rawValue
    }

    /// Prints one line per notification, its task named (looked up when no list said it) and
    /// its title tagged with the mesh; returns the notifications as printed.
    private static func printNamed(
        _ list: [MeshNotification], titles: inout TaskTitleBook, lookups: APIClient, tag: String
    ) -> [MeshNotification] {
        for id in titles.unknown(in: list, limit: lookupsPerBatch) {
            if let task = try? lookups.getBlocking(MeshTask.self, .task(id: id)) {
                titles.learn(task)
            } else {
                titles.lookupFailed(id)
            }
        }
        let named = list.map(titles.named).map { n in
            var n = n
            n.title = tag + n.title
            return n
        }
        for n in named {
            Console.out("\(n.link)\t\(n.title)\t\(n.body.split(whereSeparator: \.isNewline).joined(separator: " "))")
        }
        return named
    }

    /// Desktop notifications the way this terminal (or notify-send) takes them.
    private static func desktopNotifier(preferences: NotificationPreferences) -> DesktopNotifier {
        let environment = ProcessInfo.processInfo.environment
        let notifier = DesktopNotifier(
            route: .detect(environment: environment, outputIsTerminal: isatty(STDOUT_FILENO) == 1),
            preferences: preferences, environment: environment, launcher: children)
        askTmuxPassthrough(notifier)
        return notifier
    }

    /// Inside tmux, waits (bounded) for tmux's word on passthrough before the first
    /// notification, and says on stderr when the OSC will not be sent.
    private static func askTmuxPassthrough(_ notifier: DesktopNotifier) {
        let answer = Mutex<(String?, String?)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let asked = notifier.askTmuxPassthrough { global, pane in
            answer.withLock { $0 = (global, pane) }
            done.signal()
        }
        guard asked, done.wait(timeout: .now() + 3 * notifier.childTimeout) == .success,
            let (global, pane) = answer.withLock({ $0 })
        else { return }
        if let notice = notifier.passthroughAnswered(global: global, pane: pane) { Console.error(notice) }
    }

    /// The sync engine on this mesh's cache (opened, its notice printed), started.
    private static func startEngine(client: APIClient, key: APIKey, tag: String) throws -> (SyncEngine, CacheStore?) {
        let (cache, notice) = CacheSession.open(for: client.profile)
        if let notice { Console.error(tag + notice) }
        let engine = try SyncEngine(client: client, apiKey: key, cache: cache, outbox: SyncOutbox())
        engine.start()
        return (engine, cache)
    }

    /// Writes the notifier's terminal bytes after the lines already printed; returns when to
    /// flush what it held back.
    private static func deliver(_ d: DesktopNotifier.Delivery) -> Date? {
        if !d.terminalBytes.isEmpty { FileHandle.standardOutput.write(Data(d.terminalBytes)) }
        return d.flushAfter.map { Date().addingTimeInterval($0) }
    }

    private static func monotonic() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// SIGINT/SIGTERM ask a headless command to finish cleanly (the cache writer flushes).
/// Shared by the threads of `watch --all`: its state after `init` is the atomic flag alone.
final class StopSignal: @unchecked Sendable {
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
