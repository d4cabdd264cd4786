import Foundation

/// One row of a list: an identity (kept across refreshes and filtering), what is drawn, and
/// the text the `/` filter matches.
public struct ListRow: Equatable, Sendable {
    public var id: String
    public var line: StyledLine
    public var searchText: String
    /// One key per order the list offers (`ListPaneViewModel.sorts`).
    public var sortKeys: [String]
    /// Set: the row is laid out for the list's width, its title giving up cells first.
    public var fitted: FittedRow?

    public init(id: String, line: StyledLine, searchText: String? = nil, sortKeys: [String] = []) {
        self.id = id
        self.line = line
        self.searchText = searchText ?? line.text
        self.sortKeys = sortKeys
    }

    /// A row whose title narrows before its other columns are cut (`FittedRow`).
    public init(id: String, fitted: FittedRow, searchText: String? = nil, sortKeys: [String] = []) {
        self.init(id: id, line: fitted.line(fitting: .max), searchText: searchText, sortKeys: sortKeys)
        self.fitted = fitted
    }

    /// The row laid out in `cells`.
    func line(fitting cells: Int) -> StyledLine { fitted?.line(fitting: cells) ?? line }
}

/// A scrolling, filterable list with one selected row (vim keys, arrows, g/G, PgUp/PgDn and
/// a `/` filter). The state is a value: panes keep it and render it each frame.
///
/// Lists can hold tens of thousands of rows (a large mesh's tasks), so the filter's matches
/// are kept as row indices, computed when the rows or the filter change (a typed character
/// searches only the rows that matched before it), and a frame draws only the rows in view.
public struct ListView: Equatable, Sendable {
    public private(set) var rows: [ListRow] = []
    public private(set) var filter = ""
    public private(set) var isEditingFilter = false
    /// Index into `visibleRows`.
    public private(set) var selection = 0
    public private(set) var scrollOffset = 0
    /// Rows that fit in the viewport at the last render (PgUp/PgDn move by this much).
    public private(set) var pageSize = 10
    public var emptyMessage: String
    /// Each row's `searchText`, case-folded, as the filter compares it.
    private var searchKeys: [FilterKey] = []
    /// Indices into `rows` of the rows matching `filter`, in order (every row when it is empty).
    private var matches: [Int] = []

    public init(rows: [ListRow] = [], emptyMessage: String = "no data yet") {
        self.emptyMessage = emptyMessage
        setRows(rows)
    }

    public static func == (a: ListView, b: ListView) -> Bool {
        a.rows == b.rows && a.filter == b.filter && a.isEditingFilter == b.isEditingFilter
            && a.selection == b.selection && a.scrollOffset == b.scrollOffset && a.pageSize == b.pageSize
            && a.emptyMessage == b.emptyMessage
    }

    /// The rows matching the filter (case-insensitive substring), in order.
    public var visibleRows: [ListRow] { matches.map { rows[$0] } }

    /// How many rows match the filter.
    public var visibleCount: Int { matches.count }

    public var selectedRow: ListRow? { matches.indices.contains(selection) ? rows[matches[selection]] : nil }

    /// Replaces the rows, keeping the selected row selected when it is still there.
    public mutating func setRows(_ newRows: [ListRow]) {
        let keep = selectedRow?.id
        rows = newRows
        searchKeys = newRows.map { FilterKey($0.searchText) }
        matches = Self.match(FilterKey(filter), in: searchKeys, among: nil)
        reselect(keep)
    }

    // MARK: Movement

    public mutating func moveUp() { select(selection - 1) }
    public mutating func moveDown() { select(selection + 1) }
    public mutating func moveToTop() { select(0) }
    public mutating func moveToBottom() { select(matches.count - 1) }
    public mutating func pageUp() { select(selection - max(1, pageSize - 1)) }
    public mutating func pageDown() { select(selection + max(1, pageSize - 1)) }

    /// Selects the row with this id, clearing a filter that hides it; false when absent.
    public mutating func select(rowID: String) -> Bool {
        guard rows.contains(where: { $0.id == rowID }) else { return false }
        if visibleIndex(of: rowID) == nil { setFilter("") }
        select(visibleIndex(of: rowID) ?? 0)
        return true
    }

    mutating func select(_ index: Int) {
        let count = matches.count
        selection = count == 0 ? 0 : min(max(0, index), count - 1)
    }

    // MARK: Filter

    /// `/`: start editing the filter (the current text stays, to refine it).
    public mutating func beginFilter() { isEditingFilter = true }

    /// Typing while the filter is edited. Returns false when not editing.
    public mutating func editFilter(_ edit: TextEdit) -> Bool {
        guard isEditingFilter else { return false }
        let keep = selectedRow?.id
        switch edit {
        case .submit: isEditingFilter = false
        case .cancel:
            isEditingFilter = false
            setFilter("")
        case .deleteBackward: if !filter.isEmpty { setFilter(String(filter.dropLast())) }
        case .insert(let c): setFilter(filter + String(c))
        case .complete: break
        }
        reselect(keep)
        return true
    }

    /// Clears an applied filter; returns false when there was none (so Esc can go back).
    public mutating func clearFilter() -> Bool {
        guard !filter.isEmpty || isEditingFilter else { return false }
        let keep = selectedRow?.id
        setFilter("")
        isEditingFilter = false
        reselect(keep)
        return true
    }

    /// Changes the filter and its matches: a filter that extends the last one searches only
    /// the rows that matched it.
    private mutating func setFilter(_ new: String) {
        guard new != filter else { return }
        let narrowing = !filter.isEmpty && new.hasPrefix(filter)
        filter = new
        matches = Self.match(FilterKey(new), in: searchKeys, among: narrowing ? matches : nil)
    }

    /// Indices of the keys holding `needle` (all of them for an empty needle), searching only
    /// `among` when given.
    private static func match(_ needle: FilterKey, in keys: [FilterKey], among: [Int]?) -> [Int] {
        if needle.isEmpty { return among ?? Array(keys.indices) }
        return (among ?? Array(keys.indices)).filter { keys[$0].contains(needle) }
    }

    /// The position among the visible rows of the row with this id.
    private func visibleIndex(of id: String) -> Int? { matches.firstIndex { rows[$0].id == id } }

    private mutating func reselect(_ id: String?) {
        if let id, let i = visibleIndex(of: id) { selection = i } else { select(selection) }
    }

    // MARK: Rendering

    /// Draws the list in `rect`: a filter line when a filter is set or being typed, then the
    /// rows, the selected one in reverse video. Adjusts the scroll offset to keep it in view.
    public mutating func render(into buffer: inout CellBuffer, rect: Rect, context: RenderContext) {
        guard !rect.isEmpty else { return }
        var area = rect
        if isEditingFilter || !filter.isEmpty {
            var prompt = StyledLine("/", CellStyle(fg: .accent, attributes: .bold))
            prompt.append(filter, CellStyle(fg: .foreground))
            if isEditingFilter { prompt.append("_", CellStyle(fg: .accent, attributes: .bold)) }
            let count = " \(matches.count)/\(rows.count)"
            buffer.write(prompt, x: area.x, y: area.y, maxX: area.maxX - CellWidth.of(count))
            buffer.write(count, x: area.maxX - CellWidth.of(count), y: area.y, style: CellStyle(fg: .foregroundMuted))
            area = area.inset(top: 1)
        }
        pageSize = max(1, area.height)
        select(selection)
        if matches.isEmpty {
            let message = filter.isEmpty ? emptyMessage : "no matches for “\(filter)”"
            buffer.fill(area.row(0), style: .plain)
            buffer.write(
                message, x: area.x + 1, y: area.y, style: CellStyle(fg: .foregroundMuted, attributes: .italic),
                maxX: area.maxX)
            return
        }
        if selection < scrollOffset { scrollOffset = selection }
        if selection >= scrollOffset + pageSize { scrollOffset = selection - pageSize + 1 }
        scrollOffset = max(0, min(scrollOffset, max(0, matches.count - pageSize)))
        let marker = context.glyphs.selectionMarker
        for (i, index) in matches[scrollOffset...].prefix(pageSize).enumerated() {
            let row = rows[index]
            let line = row.line(fitting: area.width - 2)
            let y = area.y + i
            buffer.fill(area.row(i), style: .plain)
            let selected = scrollOffset + i == selection
            buffer.mark(area.row(i), .row(scrollOffset + i), selected: selected)
            if selected {
                let highlight = CellStyle(fg: .accent, attributes: [.reverse, .bold])
                buffer.fill(area.row(i), style: highlight)
                buffer.write(marker, x: area.x, y: y, style: highlight)
                let text = StyledLine(line.text, highlight)
                buffer.write(text.truncated(to: area.width - 2, ellipsis: context.glyphs.ellipsis), x: area.x + 2, y: y)
            } else {
                buffer.write(line.truncated(to: area.width - 2, ellipsis: context.glyphs.ellipsis), x: area.x + 2, y: y)
            }
        }
    }
}
