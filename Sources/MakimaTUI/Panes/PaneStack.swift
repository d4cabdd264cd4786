/// The panes the user went through: the top one is shown, `q`/Esc pops. Top-level panes that
/// are popped are kept (with their scroll and filter) for when the user comes back.
public struct PaneStack {
    public private(set) var panes: [any Pane]
    private var parked: [PaneID: any Pane] = [:]
    private let make: (PaneID) -> any Pane

    public init(root: PaneID = .home, make: @escaping (PaneID) -> any Pane) {
        self.make = make
        panes = [make(root)]
    }

    public var top: any Pane { panes[panes.count - 1] }
    public var ids: [PaneID] { panes.map(\.id) }

    /// Goes to a top-level pane's root: the stack becomes the path from the first pane (Home)
    /// to it, whatever was drilled into or visited before, so the NAV// breadcrumbs show a
    /// path, never the history. A pane left earlier comes back with its selection and filter.
    public mutating func jump(to id: PaneID) {
        if panes.count == 2, panes[1].id == id, panes[1].isTopLevel { return }
        while panes.count > 1 { park(panes.removeLast()) }
        if panes[0].id == id { return }
        panes.append(parked.removeValue(forKey: id) ?? make(id))
    }

    public mutating func push(_ pane: any Pane) { panes.append(pane) }

    /// Pops the top pane; false when it is the only one.
    @discardableResult
    public mutating func pop() -> Bool {
        guard panes.count > 1 else { return false }
        park(panes.removeLast())
        return true
    }

    /// Runs `body` on the top pane (keys, rendering).
    public mutating func withTop<R>(_ body: (inout any Pane) -> R) -> R {
        body(&panes[panes.count - 1])
    }

    /// Applies `body` to every live or parked pane of type `P` with this id (data updates).
    public mutating func update<P: Pane>(_ id: PaneID, as type: P.Type, _ body: (inout P) -> Void) {
        for i in panes.indices where panes[i].id == id {
            if var p = panes[i] as? P {
                body(&p)
                panes[i] = p
            }
        }
        if var p = parked[id] as? P {
            body(&p)
            parked[id] = p
        }
    }

    private mutating func park(_ pane: any Pane) {
        // Drill-down panes are not kept: jumping to their NAV// entry shows the list again.
        if pane.isTopLevel { parked[pane.id] = pane }
    }
}
