import MakimaKit

/// Which lists each pane shows, and the status filters `f` steps through.
struct PaneQueries: Equatable {
    var contractStatus: ContractStatus?
    var taskStatus: TaskStatus?

    static let contractCycle: [ContractStatus?] = [nil, .active, .completed, .archived]
    static let taskCycle: [TaskStatus?] = [nil, .running, .pending, .queued, .completed, .failed]

    /// What Home is made of (docs/design.md, "Home"): the lists `status` and `watch` use, plus
    /// every task: "recent tasks" from the running list alone would only repeat the running ones.
    static let home: [ListQuery] = CacheBridge.homeQueries + [.tasks(status: nil, contractID: nil)]

    func queries(for pane: PaneID) -> [ListQuery] {
        switch pane {
        case .home: return Self.home
        case .contracts: return [.contracts(status: contractStatus)]
        case .tasks: return [.tasks(status: taskStatus, contractID: nil)]
        case .directives: return [.directives(pendingOnly: false)]
        case .daemons: return [.daemons]
        case .listen: return [.listenSessions(limit: nil)]
        case .settings: return []
        }
    }

    /// Steps the pane's filter; false when the pane has none.
    mutating func next(_ pane: PaneID) -> Bool {
        switch pane {
        case .contracts: contractStatus = Self.following(contractStatus, in: Self.contractCycle)
        case .tasks: taskStatus = Self.following(taskStatus, in: Self.taskCycle)
        default: return false
        }
        return true
    }

    static func following<T: Equatable>(_ value: T?, in cycle: [T?]) -> T? {
        let i = cycle.firstIndex(where: { $0 == value }) ?? -1
        return cycle[(i + 1) % cycle.count]
    }

    /// The panes whose data a query feeds.
    static func panes(for query: ListQuery) -> Set<PaneID> {
        switch query {
        case .daemons: return [.home, .daemons]
        case .contracts: return [.home, .contracts]
        case .tasks: return [.home, .tasks]
        case .directives: return [.home, .directives]
        case .listenSessions: return [.home, .listen]
        }
    }
}
