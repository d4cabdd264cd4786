/// How a deep link names one item of a kind of list (a destination's fetch-and-keep half):
/// the link's kind, and whether the item is fetched on its own when its pane opens
/// (`GET {the kind's path}/{id}`, kept in its store's details) or found in the kind's lists.
public struct ItemLink: Sendable {
    /// `makima://{kind}/{id}`.
    public let kind: DeepLink.Kind
    /// True: the item is fetched alone (`SyncEngine.loadDetail`); false: its lists hold it.
    public let fetchedAlone: Bool

    public init(_ kind: DeepLink.Kind, fetchedAlone: Bool) {
        self.kind = kind
        self.fetchedAlone = fetchedAlone
    }
}

extension ListKinds {
    /// The kinds of list whose items a deep link names, by the link's kind: what `DeepLink`
    /// parses, what `SyncEngine.loadDetail` fetches and where `StoreHub` keeps it. A kind
    /// defined elsewhere (a test's) is added for the length of a task:
    /// `ListKinds.$destinations.withValue(ListKinds.destinations.adding(kind)) { … }`.
    @TaskLocal public static var destinations = Registry<DeepLink.Kind, any AnyListKind>(
        [ListKinds.tasks, ListKinds.contracts, ListKinds.directives, ListKinds.listenSessions],
        key: { kind in
            guard let link = kind.link else { preconditionFailure("the kind \(kind.name) names no link") }
            return link.kind
        })
}
