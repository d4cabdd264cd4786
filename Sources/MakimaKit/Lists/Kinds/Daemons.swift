import Foundation

extension ListKinds {
    /// `GET /mesh/daemons`. The WebSocket says nothing of daemons (status, heartbeats), so the
    /// list is read every 30 s while shown.
    public static let daemons = ListKind<Daemon>(name: "daemons", path: ["mesh", "daemons"], refreshPeriod: 30)
}

extension DeepLink.Kind {
    /// `makima://daemon/{id}`: a row of the daemons list (no detail of its own; nothing is fetched).
    public static let daemon = DeepLink.Kind("daemon", naming: ListKinds.daemons, fetchedAlone: false)
}

extension DeepLink {
    public static func daemon(_ id: String) -> DeepLink { DeepLink(.daemon, id) }
}

extension ListQuery {
    public static let daemons = ListKinds.daemons.query()
}

extension StoreHub {
    public var daemons: ListStore<Daemon> { listStore(ListKinds.daemons) }
}

extension ListStore where Item == Daemon {
    /// The whole list (daemons have no filter).
    public var list: ListState<Daemon> {
        get { self[.daemons] }
        set { self[.daemons] = newValue }
    }
    public var onlineCount: Int { list.items.filter { $0.status.isOnline }.count }
    public var offlineCount: Int { list.items.count - onlineCount }
}
