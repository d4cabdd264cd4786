import Foundation

extension StoreHub {
    /// Marks every loaded list stale: its items stay on screen with their age, as when they
    /// came from the cache, until a fetch succeeds again (after a refused key, nothing is
    /// confirmed by the server any more).
    public func markAllStale() {
        func mark<T>(_ l: inout ListState<T>) { if l.hasLoaded || !l.items.isEmpty { l.isStale = true } }
        mark(&daemons.list)
        for (k, var l) in contracts.lists {
            mark(&l)
            contracts.lists[k] = l
        }
        for (k, var l) in tasks.lists {
            mark(&l)
            tasks.lists[k] = l
        }
        mark(&directives.list)
        mark(&directives.pending)
        mark(&listen.list)
        mark(&listen.latest)
    }
}
