import Foundation
import MakimaKit

/// The dashboard's top-level panes, one entry each, in NAV// order. Adding a list pane: its
/// `PaneID`, an entry here, and its model builder beside its pane. Entries defined elsewhere
/// (a test's pane) are added for the length of a task: `PaneRegistry.$current.withValue`.
enum PaneRegistry {
    @TaskLocal static var current = Registry(shipped, key: { $0.id })

    /// The entries, in NAV// order.
    static var all: [PaneSpec] { current.all }

    private static let shipped: [PaneSpec] = [
        PaneSpec(
            id: .home, shortTitle: "HOME", term: .control,
            // What Home is made of (docs/design.md, "Home"): the lists `status` and `watch`
            // use, plus the newest tasks whatever their status: "recent tasks" from the
            // running list alone would only repeat the running ones; and the sessions list
            // the LISTEN// card names older sessions from (the Listen pane's own list).
            queries: { _, _ in MeshSummary.queries + [.homeRecentTasks, .listenSessions(limit: nil)] },
            pollSeconds: 30,
            build: {
                .home(
                    HomeMeshModel.from($0.hub, now: $0.now), network: .network($0.hub.connection),
                    serverClock: .serverClock($0.hub.connection))
            },
            make: { HomePane() }),
        PaneSpec(
            id: .contracts, shortTitle: "CNTR", term: .contracts,
            filterCycle: [nil] + ListKinds.contracts.filters,
            queries: { status, _ in [.contracts(status: status.map(ContractStatus.init(rawValue:)))] },
            build: {
                .list(
                    ListPaneModels.contracts($0.hub, status: $0.filter.map(ContractStatus.init(rawValue:)), now: $0.now)
                )
            },
            openRow: { .contract($0) },
            make: { ListPane(id: .contracts) }),
        PaneSpec(
            id: .tasks, shortTitle: "TASK", term: nil,
            filterCycle: [nil] + ListKinds.tasks.filters,
            // `c` narrows the list to one contract, picked from the contracts the stores hold.
            scope: .contract,
            queries: { status, contract in
                [.tasks(status: status.map(TaskStatus.init(rawValue:)), contractID: contract)]
            },
            build: {
                .list(
                    ListPaneModels.tasks(
                        $0.hub, status: $0.filter.map(TaskStatus.init(rawValue:)), contractID: $0.scope, now: $0.now))
            },
            openRow: { .task($0) },
            make: { ListPane(id: .tasks, contexts: [.taskList, .list, .listOrder]) }),
        PaneSpec(
            id: .directives, shortTitle: "DIR", term: .directives,
            queries: { _, _ in [.directives(pendingOnly: false)] },
            build: { .list(ListPaneModels.directives($0.hub, now: $0.now)) },
            openRow: { .directive($0) },
            make: { ListPane(id: .directives) }),
        PaneSpec(
            id: .daemons, shortTitle: "DMN", term: nil,
            queries: { _, _ in [.daemons] },
            build: { .list(ListPaneModels.daemons($0.hub, now: $0.now)) },
            make: { ListPane(id: .daemons) }),
        PaneSpec(
            id: .listen, shortTitle: "LSTN", term: .listen,
            queries: { _, _ in [.listenSessions(limit: nil)] },
            build: { .list(ListPaneModels.listen($0.hub, now: $0.now)) },
            openRow: { .listen($0) },
            make: { ListPane(id: .listen) }),
        PaneSpec(
            id: .settings, shortTitle: "SET", term: nil,
            build: { source in
                // Read the connection inside tracking, so a link change marks Settings too.
                _ = source.hub.connection.link
                return .list(source.settings().model)
            },
            rowAction: { SettingsAction(rowID: $0) },
            make: { ListPane(id: .settings) }),
    ]

    /// The lists whose cached snapshots are read at start-up: the standard ones and every
    /// pane's lists at its first filter, so a pane over a new kind of list starts from the
    /// cache too.
    static var startQueries: [ListQuery] {
        var seen = Set<ListQuery>()
        let panes = all.flatMap { $0.queries($0.filterCycle.first ?? nil, nil) }
        return (CacheBridge.standardQueries + panes).filter { seen.insert($0).inserted }
    }

    /// The entry of a top-level pane; asking for a drill-down's is a programming error (a
    /// drill-down is a `Destinations` entry).
    static func spec(_ id: PaneID) -> PaneSpec {
        guard let spec = current[id] else { preconditionFailure("pane \(id) has no entry in PaneRegistry") }
        return spec
    }

    /// The value after `value` in the pane's filter cycle (wrapping), or nil when it has none.
    static func nextFilter(_ value: String?, of id: PaneID) -> String?? {
        let cycle = spec(id).filterCycle
        guard !cycle.isEmpty else { return nil }
        let i = cycle.firstIndex(where: { $0 == value }) ?? -1
        return .some(cycle[(i + 1) % cycle.count])
    }
}
