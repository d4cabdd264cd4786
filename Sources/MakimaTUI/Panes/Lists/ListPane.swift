/// What a list pane shows: rows (already cleaned text) and what to say when there are none.
public struct ListPaneViewModel: Equatable, Sendable {
    public var rows: [ListRow]
    public var emptyMessage: String
    /// Right side of the header, e.g. "12 items · stale".
    public var detail: String?

    public init(rows: [ListRow] = [], emptyMessage: String = "no data yet", detail: String? = nil) {
        self.rows = rows
        self.emptyMessage = emptyMessage
        self.detail = detail
    }
}

/// A pane that is a header and a `ListView` (contracts, tasks, directives, daemons, listen,
/// settings until their own panes exist).
public struct ListPane: Pane {
    public let id: PaneID
    public private(set) var model: ListPaneViewModel
    public private(set) var list: ListView

    public init(id: PaneID, model: ListPaneViewModel = ListPaneViewModel()) {
        self.id = id
        self.model = model
        list = ListView(rows: model.rows, emptyMessage: model.emptyMessage)
    }

    public var keyContexts: [KeyContext] { [.list] }
    public var isEditingText: Bool { list.isEditingFilter }

    /// New data from the store: rows are replaced, the selection follows its row.
    public mutating func update(_ model: ListPaneViewModel) {
        self.model = model
        list.emptyMessage = model.emptyMessage
        list.setRows(model.rows)
    }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        GridTexture.render(into: &buffer, rect: region, context: context)
        PaneHeader.render(
            title: title, term: id.term, detail: model.detail, into: &buffer,
            row: region.inset(left: 1, right: 1).row(0), context: context)
        list.render(into: &buffer, rect: region.inset(left: 1, top: 2, right: 1), context: context)
    }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        switch action {
        case .moveUp: list.moveUp()
        case .moveDown: list.moveDown()
        case .top: list.moveToTop()
        case .bottom: list.moveToBottom()
        case .pageUp: list.pageUp()
        case .pageDown: list.pageDown()
        case .filter: list.beginFilter()
        case .dismiss: return list.clearFilter() ? .handled : .ignored
        case .open:
            guard let row = list.selectedRow else { return .ignored }
            return .request(.openRow(pane: id, rowID: row.id))
        case .nextFilter: return .request(.nextFilter(id))
        default: return .ignored
        }
        return .handled
    }

    public mutating func edit(_ edit: TextEdit) -> PaneResponse {
        list.editFilter(edit) ? .handled : .ignored
    }
}
