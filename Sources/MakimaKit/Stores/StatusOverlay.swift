import Foundation

/// Statuses the UI learnt from events before the cache writer committed them (a few dozen
/// milliseconds: the writer gathers a batch for up to 50 ms). Bounded: past `capacity` the
/// oldest go (their rows then show the table's status until the commit lands).
struct StatusOverlay {
    static let capacity = 1_024
    /// Entries the table has not agreed with after this long are dropped (a newer list said otherwise).
    static let patience: TimeInterval = 5
    private(set) var statuses: [String: TaskStatus] = [:]
    private var noted: [String: Date] = [:]
    private var order: [String] = []

    mutating func note(_ id: String, _ status: TaskStatus, at: Date, now: Date) {
        if statuses[id] == nil { order.append(id) }
        statuses[id] = status
        noted[id] = now
        if order.count > Self.capacity {
            for gone in order.prefix(order.count - Self.capacity) {
                statuses[gone] = nil
                noted[gone] = nil
            }
            order.removeFirst(order.count - Self.capacity)
        }
    }

    /// Drops the entries the table now agrees with, and those it has not after `patience`.
    mutating func settle(with table: TaskTable, now: Date) {
        guard !statuses.isEmpty else { return }
        for (id, s) in statuses {
            let agreed = table.task(id: id)?.status == s
            if agreed || now.timeIntervalSince(noted[id] ?? now) > Self.patience {
                statuses[id] = nil
                noted[id] = nil
            }
        }
        order.removeAll { statuses[$0] == nil }
    }

    /// How many rows the overlay adds to (or takes from) a status-filtered count.
    func adjustment(for filter: TasksStore.Filter, in table: TaskTable) -> Int {
        guard let wanted = filter.status, filter.limit == nil, !statuses.isEmpty else { return 0 }
        var delta = 0
        for (id, s) in statuses {
            let row = table.task(id: id)
            if let c = filter.contractID, row?.contractID != c { continue }
            let was = row?.status == wanted
            let now = s == wanted
            if was != now { delta += now ? 1 : -1 }
        }
        return delta
    }
}
