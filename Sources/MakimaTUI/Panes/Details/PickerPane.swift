/// Picks one value for a list pane's scope (Tasks: a contract): "all" first, then the
/// choices; `/` filters them, Enter picks, Esc goes back without changing anything.
public struct PickerPane: Pane {
    public let id = PaneID.picker
    /// The pane whose scope is picked.
    public let owner: PaneID
    public var section: PaneID { owner }
    public let heading: String
    public private(set) var list: ListView

    static let allID = "\u{0}all"

    public init(owner: PaneID, title: String, choices: [(id: String, label: String)], current: String?) {
        self.owner = owner
        heading = title
        var rows = [
            ListRow(
                id: Self.allID,
                line: StyledLine("all \(title.lowercased())s", CellStyle(fg: .accent, attributes: .bold)))
        ]
        rows += choices.map { ListRow(id: $0.id, line: StyledLine($0.label, CellStyle(fg: .foreground))) }
        list = ListView(rows: rows, emptyMessage: "nothing to pick from yet")
        if let current { _ = list.select(rowID: current) }
    }

    public var title: String { "PICK \(heading)" }
    public var keyContexts: [KeyContext] { [.list] }
    public var isEditingText: Bool { list.isEditingFilter }
    public var isTopLevel: Bool { false }
    public var crumb: Crumb { Crumb("PICK", heading) }

    /// New choices arrived (the list was fetched while the picker was open).
    public mutating func update(choices: [(id: String, label: String)]) {
        var rows = [list.rows.first].compactMap { $0 }
        rows += choices.map { ListRow(id: $0.id, line: StyledLine($0.label, CellStyle(fg: .foreground))) }
        list.setRows(rows)
    }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        if let response = list.handleMovement(action) { return response }
        guard action == .open, let row = list.selectedRow else { return .ignored }
        return .request(.setScope(owner, row.id == Self.allID ? nil : row.id))
    }

    public mutating func edit(_ edit: TextEdit) -> PaneResponse { list.editFilter(edit) ? .handled : .ignored }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        GridTexture.render(into: &buffer, rect: region, context: context)
        PaneHeader.render(
            title: title, term: nil, detail: "Enter picks · Esc keeps the current one", into: &buffer,
            row: region.inset(left: 1, right: 1).row(0), context: context)
        list.render(into: &buffer, rect: region.inset(left: 1, top: 2, right: 1), context: context)
    }
}
