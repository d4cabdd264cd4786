import Foundation

extension StoreHub {
    /// Marks every loaded list stale: its items stay on screen with their age, as when they
    /// came from the cache, until a fetch succeeds again (after a refused key, nothing is
    /// confirmed by the server any more).
    public func markAllStale() {
        for (_, store) in listStores { store.markStale() }
    }
}

extension StoreHub {
    /// Forgets everything one server said (signing out, switching to another server): the next
    /// server's cache and fetches fill the stores again. Notifications already shown stay listed.
    public func forgetServer() {
        for (_, store) in listStores { store.forget() }
        missing.links.removeAll()
        needsYou.reset()
        connection.link = .idle
    }
}

extension StoreHub {
    /// The objects the panes on the navigation stack read: kept in the bounded detail maps
    /// (`BoundedMap`) however many others are fetched meanwhile, until those panes close. Each
    /// kind says which links name its items (`ListKind.detailID`).
    /// Runs with every batch of updates, so the same links cost a comparison only: a store
    /// made later pins its share as it is registered (`register(_:for:)`), and nothing else unpins.
    public func keepDetails(of links: [DeepLink]) {
        guard links != pinnedLinks else { return }
        pinnedLinks = links
        for (kind, store) in listStores { store.keepDetails(Set(links.compactMap(kind.detailID(of:)))) }
        // Only a real change is written: every write to an observed store marks the panes
        // that read it dirty.
        let all = Set(links)
        if missing.links.pinned != all { missing.links.pin(all) }
    }
}
