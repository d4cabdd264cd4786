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

extension StoreHub {
    /// Forgets everything one server said (signing out, switching to another server): the next
    /// server's cache and fetches fill the stores again. Notifications already shown stay listed.
    public func forgetServer() {
        daemons.list = ListState()
        contracts.lists = [:]
        contracts.details = [:]
        tasks.lists = [:]
        tasks.details = [:]
        tasks.outputs = [:]
        directives.list = ListState()
        directives.pending = ListState()
        listen.list = ListState()
        listen.latest = ListState()
        listen.details = [:]
        connection.link = .idle
        connection.unauthorizedMessage = nil
    }
}
