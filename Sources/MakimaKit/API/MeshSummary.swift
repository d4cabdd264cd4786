import Foundation

/// The Home pane's numbers (and `makima-tui status`), from five requests made concurrently:
/// daemons, running tasks, contracts, pending directives, the latest listen session.
///
/// Counts are made from the items themselves (a server that ignores a filter still gives
/// right numbers): online = status online or busy, offline = every other daemon.
public struct MeshSummary: Sendable, Equatable {
    public var daemonsOnline: Int
    public var daemonsOffline: Int
    public var runningTasks: Int
    public var activeContracts: Int
    public var pendingQuestions: Int
    public var latestListenSession: ListenSession?

    public init(
        daemonsOnline: Int, daemonsOffline: Int, runningTasks: Int, activeContracts: Int,
        pendingQuestions: Int, latestListenSession: ListenSession?
    ) {
        self.daemonsOnline = daemonsOnline
        self.daemonsOffline = daemonsOffline
        self.runningTasks = runningTasks
        self.activeContracts = activeContracts
        self.pendingQuestions = pendingQuestions
        self.latestListenSession = latestListenSession
    }

    public init(
        daemons: [Daemon], runningTasks: [MeshTask], contracts: [Contract], pendingDirectives: [Directive],
        listenSessions: [ListenSession]
    ) {
        let online = daemons.filter { $0.status.isOnline }.count
        self.init(
            daemonsOnline: online,
            daemonsOffline: daemons.count - online,
            runningTasks: runningTasks.filter { $0.status == .running }.count,
            activeContracts: contracts.filter { $0.status == .active }.count,
            pendingQuestions: pendingDirectives.filter(\.hasPendingQuestion).count,
            latestListenSession: listenSessions.max { ($0.startedAt ?? .distantPast) < ($1.startedAt ?? .distantPast) })
    }

    public static func fetch(using client: APIClient) async throws -> MeshSummary {
        async let daemons = client.daemons()
        async let tasks = client.tasks(status: .running)
        async let contracts = client.contracts()
        async let directives = client.directives(pending: true)
        async let sessions = client.listenSessions(limit: 1)
        return try await MeshSummary(
            daemons: daemons.items, runningTasks: tasks.items, contracts: contracts.items,
            pendingDirectives: directives.items, listenSessions: sessions.items)
    }
}
