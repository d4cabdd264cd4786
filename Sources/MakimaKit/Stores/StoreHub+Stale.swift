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
        contracts.details.removeAll()
        tasks.lists = [:]
        // The rows stay in that server's cache file; the table read now is an empty one
        // until the next server's cache is opened (`TasksStore.useTable`).
        tasks.useTable(TaskTable.inMemory())
        tasks.details.removeAll()
        tasks.outputs = [:]
        directives.list = ListState()
        directives.pending = ListState()
        listen.list = ListState()
        listen.latest = ListState()
        listen.details.removeAll()
        missing.links.removeAll()
        connection.link = .idle
    }
}

extension StoreHub {
    /// The objects the panes on the navigation stack read: kept in the bounded detail maps
    /// (`BoundedMap`) however many others are fetched meanwhile, until those panes close.
    public func keepDetails(of links: [DeepLink]) {
        var contracts: Set<String> = []
        var tasks: Set<String> = []
        var sessions: Set<String> = []
        for link in links {
            switch link {
            case .contract(let id): contracts.insert(id)
            case .task(let id): tasks.insert(id)
            case .listen(let id): sessions.insert(id)
            case .directive: break  // directives come from their lists only
            }
        }
        // Only a real change is written: every write to an observed store marks the panes
        // that read it dirty, and this runs with every batch of updates.
        if self.contracts.details.pinned != contracts { self.contracts.details.pin(contracts) }
        if self.tasks.details.pinned != tasks { self.tasks.details.pin(tasks) }
        if listen.details.pinned != sessions { listen.details.pin(sessions) }
        let all = Set(links)
        if missing.links.pinned != all { missing.links.pin(all) }
    }
}
