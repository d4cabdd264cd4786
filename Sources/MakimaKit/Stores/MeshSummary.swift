import Foundation

/// The mesh in five numbers: Home's badge and cards, `makima-tui status` and `watch` all read
/// them from a `StoreHub` through `init(_:)`, the one counting rule, so they cannot disagree.
///
/// Counts are made from the items themselves (a server that ignores a filter still gives
/// right numbers): online = status online or busy, offline = every other daemon; running =
/// the task table's running rows as status events keep them (`TasksStore.runningCount`).
public struct MeshSummary: Sendable, Equatable {
    public var daemonsOnline: Int
    public var daemonsOffline: Int
    public var runningTasks: Int
    public var activeContracts: Int
    public var pendingQuestions: Int
    public var latestListenSession: ListenSession?

    /// The counting rule, and the only way to make a summary.
    @MainActor
    public init(_ hub: StoreHub) {
        daemonsOnline = hub.daemons.onlineCount
        daemonsOffline = hub.daemons.offlineCount
        runningTasks = hub.tasks.runningCount
        activeContracts = hub.contracts.active.count
        pendingQuestions = hub.directives.pendingQuestionCount
        latestListenSession = hub.listen.latestSession
    }

    /// The lists the summary is made of (`status`, `watch` and Home fetch these).
    public static let queries: [ListQuery] = [
        .daemons, .tasks(status: .running, contractID: nil), .contracts(status: nil),
        .directives(pendingOnly: true), .listenSessions(limit: 1),
    ]

    /// Fetches `queries` concurrently (each as its kind fetches it, on a thread of its own:
    /// every page of a list counted from, docs/api.md "Paging") and counts them (`counting`).
    @MainActor
    public static func fetch(using client: APIClient) async throws -> MeshSummary {
        // The first failure stops the other reads at their next callback: the group waits for
        // its children, and a read held by a silent server would keep it until its timeout.
        let stop = CancellationFlag()
        let reader = client.cancelled(by: stop)
        let lists = try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: (Int, ListPayload).self) { group in
                for (i, query) in queries.enumerated() {
                    group.addTask { (i, try await onDedicatedThread("summary") { try list(query, using: reader) }) }
                }
                var payloads: [Int: ListPayload] = [:]
                do {
                    for try await (i, payload) in group { payloads[i] = payload }
                } catch {
                    stop.cancel()
                    throw error
                }
                return queries.indices.compactMap { i in payloads[i].map { (queries[i], $0) } }
            }
        } onCancel: {
            stop.cancel()
        }
        return counting(lists, at: Date())
    }

    /// One of `queries`, read on the calling thread (never the UI thread): every page, up to
    /// `ListPaging.maxBytes`.
    public static func list(_ query: ListQuery, using client: APIClient) throws -> ListPayload {
        try MeshFetcher(client: client).list(query)
    }

    /// Files the lists in a fresh `StoreHub` and counts with `init(_:)`: the one rule.
    @MainActor
    public static func counting(_ lists: [(ListQuery, ListPayload)], at fetchedAt: Date) -> MeshSummary {
        let hub = StoreHub()
        for (query, payload) in lists { hub.apply(.list(query, payload, fetchedAt: fetchedAt, fromCache: false)) }
        return MeshSummary(hub)
    }
}
