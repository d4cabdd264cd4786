/// What a list pane shows: rows (already cleaned text) and what to say when there are none.
public struct ListPaneViewModel: Equatable, Sendable {
    /// The rows, made when a frame asks for them (`ListWindow`).
    public var window: ListWindow
    /// Every row, made now (short lists and tests; a long list's pane reads `window`).
    public var rows: [ListRow] {
        get { window.rows }
        set { window = ListWindow(rows: newValue) }
    }
    public var emptyMessage: String
    /// Right side of the header, e.g. "12 items · stale".
    public var detail: String?
    /// Column titles, laid out like the rows (drawn above them).
    public var columns: StyledLine?
    /// Set when the rows are `FittedRow`s: the titles narrow with them.
    public var fittedColumns: FittedRow?
    /// The orders `s` steps through after the rows' own; each row has a key per order
    /// (`ListRow.sortKeys`, compared as strings, ascending).
    public var sorts: [String]

    public init(
        rows: [ListRow] = [], emptyMessage: String = "no data yet", detail: String? = nil, columns: StyledLine? = nil,
        sorts: [String] = []
    ) {
        window = ListWindow(rows: rows)
        self.emptyMessage = emptyMessage
        self.detail = detail
        self.columns = columns
        self.sorts = sorts
    }
}

/// A pane that is a header and a `ListView` (contracts, tasks, directives, daemons, listen,
/// settings until their own panes exist).
public struct ListPane: Pane {
    public let id: PaneID
    public private(set) var model: ListPaneViewModel
    public private(set) var list: ListView
    /// Index into `model.sorts` (nil: the rows' own order).
    public private(set) var sort: Int?

    public let keyContexts: [KeyContext]

    public init(
        id: PaneID, model: ListPaneViewModel = ListPaneViewModel(), contexts: [KeyContext] = [.list, .listOrder]
    ) {
        self.id = id
        self.model = model
        keyContexts = contexts
        list = ListView(emptyMessage: model.emptyMessage)
        list.setWindow(model.window)
    }
    public var isEditingText: Bool { list.isEditingFilter }

    /// New data from the store: rows are replaced, the selection follows its row. Costs the
    /// rows in view: a long list's rows are made by the frame that draws them.
    /// Returns whether what the pane draws changed (false: a change to rows out of view).
    @discardableResult
    public mutating func update(_ model: ListPaneViewModel) -> Bool {
        let before = onScreen
        self.model = model
        list.emptyMessage = model.emptyMessage
        if let s = sort, s >= model.sorts.count { sort = nil }
        list.setWindow(sortedWindow())
        return onScreen != before
    }

    /// What a frame of this pane depends on: the header and the rows in view.
    private var onScreen: [String] {
        [model.detail ?? "", model.emptyMessage, model.columns?.text ?? "", "\(list.visibleCount) \(list.selection)"]
            + list.rowsInView.map { $0.id + "\u{1}" + $0.line.text }
    }

    /// Selects the row with this id (clearing a filter that hides it); false when absent.
    public mutating func select(rowID: String) -> Bool { list.select(rowID: rowID) }

    /// The rows in the chosen order (stable: equal keys keep the rows' own order).
    func sortedWindow() -> ListWindow {
        guard let s = sort else { return model.window }
        return ListWindow(rows: sortedRows(by: s))
    }

    private func sortedRows(by s: Int) -> [ListRow] {
        return model.rows.enumerated().sorted { a, b in
            let ka = a.element.sortKeys.indices.contains(s) ? a.element.sortKeys[s] : ""
            let kb = b.element.sortKeys.indices.contains(s) ? b.element.sortKeys[s] : ""
            return ka == kb ? a.offset < b.offset : ka < kb
        }.map(\.element)
    }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        GridTexture.render(into: &buffer, rect: region, context: context)
        var detail = model.detail
        if let s = sort {
            detail = [detail, "BY " + model.sorts[s].uppercased()].compactMap { $0 }.joined(separator: " · ")
        }
        PaneHeader.render(
            title: title, term: id.term, detail: detail, into: &buffer,
            row: region.inset(left: 1, right: 1).row(0), context: context)
        var area = region.inset(left: 1, top: 2, right: 1)
        if let columns = model.columns, area.height > 2 {
            // Two cells in, where the rows' text starts after the selection marker.
            buffer.fill(area.row(0), style: .plain)
            buffer.write(
                (model.fittedColumns?.line(fitting: area.width - 2) ?? columns).truncated(
                    to: area.width - 2, ellipsis: context.glyphs.ellipsis), x: area.x + 2, y: area.y,
                maxX: area.maxX)
            area = area.inset(top: 1)
        }
        list.render(into: &buffer, rect: area, context: context)
    }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        if let response = list.handleMovement(action) { return response }
        switch action {
        case .open:
            guard let row = list.selectedRow else { return .ignored }
            return .request(.openRow(pane: id, rowID: row.id))
        case .nextFilter: return .request(.nextFilter(id))
        case .pickScope: return .request(.pickScope(id))
        case .nextSort:
            guard !model.sorts.isEmpty else { return .ignored }
            sort = sort.map { $0 + 1 < model.sorts.count ? $0 + 1 : nil } ?? 0
            list.setWindow(sortedWindow())
        default: return .ignored
        }
        return .handled
    }

    public mutating func edit(_ edit: TextEdit) -> PaneResponse {
        list.editFilter(edit) ? .handled : .ignored
    }
}

extension ListPane {
    /// The keys of the top-level list panes besides the LISTS ones (`ListView`): `s` steps the
    /// sort order here; `f` and `c` are the navigation's (it keeps each pane's filter and
    /// scope), which `handle` asks for.
    static let keyBindings: [KeyBinding] = [
        KeyBinding([.char("s")], .nextSort, "next sort order (daemons)", context: .listOrder, footer: "sort")
    ]
}
