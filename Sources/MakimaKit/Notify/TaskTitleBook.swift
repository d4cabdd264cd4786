/// Task titles by id, learnt from list and task updates, so a notification names a task by
/// its title (the event stream carries only its id). Bounded: past `capacity` the older half
/// is forgotten. Ids whose lookup failed are remembered (also bounded) and not asked for again.
public struct TaskTitleBook: Sendable {
    public static let capacity = 4096
    private var titles: [String: String] = [:]
    private var order: [String] = []
    private var failed: Set<String> = []

    public init() {}

    public func title(_ id: String) -> String? { titles[id] }

    /// How many titles are known (at most `capacity`).
    public var count: Int { titles.count }

    public mutating func learn(_ task: MeshTask) {
        let title = task.displayTitle.split(whereSeparator: \.isNewline).joined(separator: " ")
        if titles.updateValue(title, forKey: task.id) == nil { order.append(task.id) }
        failed.remove(task.id)
        if order.count > Self.capacity {
            let drop = order.prefix(order.count / 2)
            for id in drop { titles[id] = nil }
            order.removeFirst(drop.count)
        }
    }

    /// Learns the titles an update carries (task lists and single tasks).
    public mutating func learn(from update: SyncUpdate) {
        switch update {
        // The first `capacity` of a list (its newest, as the server orders them): the book keeps
        // no more, and a large mesh's list read whole would cost the UI thread every task.
        // Older tasks are named from the task table (`NotificationController.taskTitle`).
        case .list(_, let payload, _, _):
            for t in (payload.items(as: MeshTask.self) ?? []).prefix(Self.capacity) { learn(t) }
        case .detail(let link, let payload) where link.kind == .task:
            for t in payload.items(as: MeshTask.self) ?? [] { learn(t) }
        default: break
        }
    }

    public mutating func lookupFailed(_ id: String) {
        if failed.count >= Self.capacity { failed.removeAll() }
        failed.insert(id)
    }

    /// Task ids in `notifications` with no known title that have not failed a lookup before,
    /// at most `limit`, in order.
    public func unknown(in notifications: [MeshNotification], limit: Int) -> [String] {
        var out: [String] = []
        for n in notifications {
            guard out.count < limit else { break }
            if let id = n.link.id(ifKind: .task), titles[id] == nil, !failed.contains(id), !out.contains(id) {
                out.append(id)
            }
        }
        return out
    }

    /// The notification with the task's id at the head of its body replaced by the title.
    public func named(_ n: MeshNotification) -> MeshNotification {
        guard let id = n.link.id(ifKind: .task), n.body.hasPrefix(id), let title = titles[id] else { return n }
        var named = n
        named.body = title + n.body.dropFirst(id.count)
        return named
    }
}
