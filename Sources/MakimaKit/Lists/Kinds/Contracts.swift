import Foundation

extension ListKinds {
    /// `GET /contracts?status=`, read every 30 s while shown (the WebSocket carries task events
    /// only). A contract fetched on its own (its detail pane) is kept in the store's details.
    public static let contracts = ListKind<Contract>(
        name: "contracts", path: ["contracts"], refreshPeriod: 30, filters: ["active", "completed", "archived"])
}

extension DeepLink.Kind {
    /// `makima://contract/{id}`. A contract a link names is fetched alone (its detail pane).
    public static let contract = DeepLink.Kind("contract", naming: ListKinds.contracts, fetchedAlone: true)
}

extension ListQuery {
    public static func contracts(status: ContractStatus?) -> ListQuery {
        ListKinds.contracts.query([ListParameter("status", status?.rawValue)])
    }
}

extension StoreHub {
    public var contracts: ListStore<Contract> { listStore(ListKinds.contracts) }
}

extension ListStore where Item == Contract {
    public func list(_ status: ContractStatus?) -> ListState<Contract> { self[.contracts(status: status)] }

    /// Active contracts from the best list we have: the `active` filter, else the unfiltered
    /// one; either way only those whose status says active (a server may ignore the filter).
    public var active: [Contract] {
        let l = list(.some(.active))
        if l.hasLoaded || !l.items.isEmpty { return l.items.filter { $0.status == .active } }
        return list(nil).items.filter { $0.status == .active }
    }
}
