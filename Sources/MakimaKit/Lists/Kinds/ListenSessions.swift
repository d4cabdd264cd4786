import Foundation

extension ListKinds {
    /// `GET /listen/sessions?limit=`, read every 30 s while shown. A session fetched on its own
    /// with its transcript (the transcript pane) is kept in the store's details.
    public static let listenSessions = ListKind<ListenSession>(
        name: "listen_sessions", path: ["listen", "sessions"], refreshPeriod: 30)
}

extension DeepLink.Kind {
    /// `makima://listen/{id}`. A listen session a link names is fetched alone (its transcript).
    public static let listen = DeepLink.Kind("listen", naming: ListKinds.listenSessions, fetchedAlone: true)
}

extension ListQuery {
    /// A list with its own limit is one page.
    public static func listenSessions(limit: Int?) -> ListQuery {
        ListKinds.listenSessions.query(
            [ListParameter("limit", limit.map(String.init))], key: "listen?limit=\(limit.map(String.init) ?? "")",
            onePage: limit != nil)
    }
}

extension StoreHub {
    public var listen: ListStore<ListenSession> { listStore(ListKinds.listenSessions) }
}

extension ListStore where Item == ListenSession {
    public var list: ListState<ListenSession> {
        get { self[.listenSessions(limit: nil)] }
        set { self[.listenSessions(limit: nil)] = newValue }
    }
    /// The `limit=1` list: the most recent session.
    public var latest: ListState<ListenSession> {
        get { self[.listenSessions(limit: 1)] }
        set { self[.listenSessions(limit: 1)] = newValue }
    }
    /// The most recently started session, from the `limit=1` list once loaded, else the full one.
    public var latestSession: ListenSession? {
        (latest.hasLoaded || list.items.isEmpty ? latest.items : list.items)
            .max { ($0.startedAt ?? .distantPast) < ($1.startedAt ?? .distantPast) }
    }
}
