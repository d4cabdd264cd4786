import Foundation

extension ListKinds {
    /// `GET /directives` (`pending=true`: only those waiting on a supervisor question), read
    /// every 30 s while shown. A directive a link names is found in the list (no fetch of its own).
    public static let directives = ListKind<Directive>(
        name: "directives", path: ["directives"], refreshPeriod: 30)
}

extension DeepLink.Kind {
    /// `makima://directive/{id}`. A directive a link names is found in the lists.
    public static let directive = DeepLink.Kind("directive", naming: ListKinds.directives, fetchedAlone: false)
}

extension ListQuery {
    /// The server is asked `pending=true` or nothing; the cache key says which.
    public static func directives(pendingOnly: Bool) -> ListQuery {
        ListKinds.directives.query(
            [ListParameter("pending", pendingOnly ? "true" : nil)], key: "directives?pending=\(pendingOnly)")
    }
}

extension StoreHub {
    public var directives: ListStore<Directive> { listStore(ListKinds.directives) }
}

extension ListStore where Item == Directive {
    public var list: ListState<Directive> {
        get { self[.directives(pendingOnly: false)] }
        set { self[.directives(pendingOnly: false)] = newValue }
    }
    public var pending: ListState<Directive> {
        get { self[.directives(pendingOnly: true)] }
        set { self[.directives(pendingOnly: true)] = newValue }
    }
    /// Directives waiting on a supervisor question: the `pending` list once loaded, else the full one.
    public var pendingQuestions: [Directive] {
        (pending.hasLoaded ? pending.items : list.items).filter(\.hasPendingQuestion)
    }
    public var pendingQuestionCount: Int { pendingQuestions.count }
}
