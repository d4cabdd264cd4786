import Foundation
import Synchronization

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

/// A list's rows as the list reads them: by position, made when asked for. A short list hands
/// over its rows (`init(rows:)`); a long one (a large mesh's tasks) hands over functions over an
/// ordered index, so a change costs the rows a frame draws, not the rows the list holds.
public struct ListWindow: Equatable, Sendable {
    public let count: Int
    /// The rows themselves when the list was given them (compared by value).
    private let given: [ListRow]?
    /// Tells two windows made by functions apart: each one made gets its own.
    private let stamp: UInt64
    private let idAt: @Sendable (Int) -> String
    private let rowAt: @Sendable (Int) -> ListRow
    private let searchTextAt: @Sendable (Int) -> String
    /// A list that answers `/` itself (a query over its source, bounded): the rows matching a
    /// filter as a window of their own. Nil: the list view matches every row's `searchText`.
    let search: (@Sendable (String) -> ListWindow)?
    /// Where the row with an id is, without reading the rows before it (nil: they are read).
    private let positionOf: (@Sendable (String) -> Int?)?
    /// More rows match than this window holds (a filter's window at its bound).
    public let capped: Bool

    public init(rows: [ListRow]) {
        count = rows.count
        given = rows
        stamp = 0
        idAt = { rows[$0].id }
        rowAt = { rows[$0] }
        searchTextAt = { rows[$0].searchText }
        search = nil
        positionOf = nil
        capped = false
    }

    /// `count` rows made by `row(i)`; `id(i)` and `searchText(i)` must agree with it and be cheap.
    public init(
        count: Int, id: @escaping @Sendable (Int) -> String, searchText: @escaping @Sendable (Int) -> String,
        row: @escaping @Sendable (Int) -> ListRow, position: (@Sendable (String) -> Int?)? = nil,
        search: (@Sendable (String) -> ListWindow)? = nil, capped: Bool = false
    ) {
        self.count = count
        given = nil
        stamp = WindowStamp.next()
        idAt = id
        rowAt = row
        searchTextAt = searchText
        self.search = search
        positionOf = position
        self.capped = capped
    }

    public func id(_ i: Int) -> String { idAt(i) }
    /// The position of the row with this id, or nil.
    public func position(of id: String) -> Int? {
        if let positionOf { return positionOf(id) }
        return (0..<count).first { idAt($0) == id }
    }
    public func row(_ i: Int) -> ListRow { rowAt(i) }
    public func searchText(_ i: Int) -> String { searchTextAt(i) }
    /// Every row, made now (short lists and tests; a frame never needs them all).
    public var rows: [ListRow] { given ?? (0..<count).map(rowAt) }

    public static func == (a: ListWindow, b: ListWindow) -> Bool {
        if let ra = a.given, let rb = b.given { return ra == rb }
        return a.stamp == b.stamp && a.count == b.count
    }
}

private enum WindowStamp {
    private static let counter = Atomic<UInt64>(0)
    static func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }
}

/// A scrolling, filterable list with one selected row (vim keys, arrows, g/G, PgUp/PgDn and
/// a `/` filter). The state is a value: panes keep it and render it each frame.
///
/// Lists can hold a hundred thousand rows (a large mesh's tasks): the rows come from a
/// `ListWindow` and a frame makes only the rows in view. A window that answers `/` itself (a
/// query over the task table) gives the matching rows as a window of their own, bounded;
/// otherwise the filter's matches are kept as row indices, computed when the rows or the
/// filter change (a typed character searches only the rows that matched before it), and the
/// rows' filter keys are made only while a filter is used.
public struct ListView: Equatable, Sendable {
    public private(set) var window = ListWindow(rows: [])
    public private(set) var filter = ""
    public private(set) var isEditingFilter = false
    /// Index into the visible rows.
    public private(set) var selection = 0
    public private(set) var scrollOffset = 0
    /// Rows that fit in the viewport at the last render (PgUp/PgDn move by this much).
    public private(set) var pageSize = 10
    public var emptyMessage: String
    /// Rows kept in view above and below the selected one when the list scrolls (vim's
    /// `scrolloff`), as many as the list and the view allow; 0 for most lists.
    public var scrollMargin = 0
    /// Each row's `searchText`, case-folded, as the filter compares it (only while a filter is
    /// typed or applied).
    private var searchKeys: [FilterKey]?
    /// Indices into the window of the rows matching `filter`, in order (nil: every row).
    private var matches: [Int]?
    /// The rows matching `filter` when the window answers `/` itself (`ListWindow.search`):
    /// one bounded query per keystroke or change, no key per row.
    private var searched: ListWindow?

    public init(rows: [ListRow] = [], emptyMessage: String = "no data yet") {
        self.emptyMessage = emptyMessage
        setRows(rows)
    }

    public static func == (a: ListView, b: ListView) -> Bool {
        a.window == b.window && a.filter == b.filter && a.isEditingFilter == b.isEditingFilter
            && a.selection == b.selection && a.scrollOffset == b.scrollOffset && a.pageSize == b.pageSize
            && a.emptyMessage == b.emptyMessage && a.scrollMargin == b.scrollMargin
    }

    /// Every row, in order (made now: for short lists and tests).
    public var rows: [ListRow] { window.rows }

    /// The rows matching the filter (case-insensitive substring), in order.
    public var visibleRows: [ListRow] {
        if let searched { return searched.rows }
        return matches.map { $0.map(window.row) } ?? window.rows
    }

    /// How many rows match the filter.
    public var visibleCount: Int { searched?.count ?? matches?.count ?? window.count }

    /// The window position of the `i`th visible row.
    private func position(_ i: Int) -> Int { matches.map { $0[i] } ?? i }

    /// The `i`th visible row, and its id.
    private func visibleRow(_ i: Int) -> ListRow { searched?.row(i) ?? window.row(position(i)) }
    private func visibleID(_ i: Int) -> String { searched?.id(i) ?? window.id(position(i)) }

    public var selectedRow: ListRow? {
        (0..<visibleCount).contains(selection) ? visibleRow(selection) : nil
    }

    private var selectedID: String? {
        (0..<visibleCount).contains(selection) ? visibleID(selection) : nil
    }

    /// The rows the last frame's viewport holds (the scroll offset as the last render left it).
    var rowsInView: [ListRow] {
        let start = min(scrollOffset, visibleCount)
        return (start..<min(visibleCount, start + pageSize)).map(visibleRow)
    }

    /// Replaces the rows, keeping the selected row selected when it is still there.
    public mutating func setRows(_ newRows: [ListRow]) { setWindow(ListWindow(rows: newRows)) }

    /// Replaces the rows, keeping the selected row selected when it is still there. Costs the
    /// rows near the selection unless a filter is in use (then every row's key is made again).
    public mutating func setWindow(_ newWindow: ListWindow) {
        let keep = selectedID
        window = newWindow
        searchKeys = nil
        matches = nil
        searched = nil
        if !filter.isEmpty || isEditingFilter { refilter(narrowing: false) }
        reselect(keep)
    }

    /// The matches of `filter`: the window's own search, or the rows' keys (searching only the
    /// rows that matched before when `narrowing`).
    private mutating func refilter(narrowing: Bool) {
        if let search = window.search {
            searched = filter.isEmpty ? nil : search(filter)
            return
        }
        matches = filter.isEmpty ? nil : Self.match(FilterKey(filter), in: keys(), among: narrowing ? matches : nil)
    }

    private mutating func keys() -> [FilterKey] {
        if let searchKeys { return searchKeys }
        let made = (0..<window.count).map { FilterKey(window.searchText($0)) }
        searchKeys = made
        return made
    }

    // MARK: Movement

    public mutating func moveUp() { select(selection - 1) }
    public mutating func moveDown() { select(selection + 1) }
    public mutating func moveToTop() { select(0) }
    public mutating func moveToBottom() { select(visibleCount - 1) }
    public mutating func pageUp() { select(selection - max(1, pageSize - 1)) }
    public mutating func pageDown() { select(selection + max(1, pageSize - 1)) }

    /// Selects the row with this id, clearing a filter that hides it; false when absent.
    public mutating func select(rowID: String) -> Bool {
        guard window.position(of: rowID) != nil else { return false }
        if visibleIndex(of: rowID) == nil { setFilter("") }
        select(visibleIndex(of: rowID) ?? 0)
        return true
    }

    mutating func select(_ index: Int) {
        let count = visibleCount
        selection = count == 0 ? 0 : min(max(0, index), count - 1)
    }

    // MARK: Filter

    /// `/`: start editing the filter (the current text stays, to refine it).
    public mutating func beginFilter() {
        isEditingFilter = true
        if window.search == nil { _ = keys() }  // made once here, not on the first typed character
    }

    /// Typing while the filter is edited. Returns false when not editing.
    public mutating func editFilter(_ edit: TextEdit) -> Bool {
        guard isEditingFilter else { return false }
        let keep = selectedID
        switch edit {
        case .submit: isEditingFilter = false
        case .cancel:
            isEditingFilter = false
            setFilter("")
        case .deleteBackward: if !filter.isEmpty { setFilter(String(filter.dropLast())) }
        case .insert(let c): if TextEdit.fits(c, in: filter) { setFilter(filter + String(c)) }
        case .complete: break
        }
        reselect(keep)
        return true
    }

    /// Clears an applied filter; returns false when there was none (so Esc can go back).
    public mutating func clearFilter() -> Bool {
        guard !filter.isEmpty || isEditingFilter else { return false }
        let keep = selectedID
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
        refilter(narrowing: narrowing)
    }

    /// Indices of the keys holding `needle` (all of them for an empty needle), searching only
    /// `among` when given.
    private static func match(_ needle: FilterKey, in keys: [FilterKey], among: [Int]?) -> [Int]? {
        if needle.isEmpty { return among }
        return (among ?? Array(keys.indices)).filter { keys[$0].contains(needle) }
    }

    /// The position among the visible rows of the row with this id: looked for near `near`
    /// first (a change moves the selected row a step or two, if at all), then everywhere.
    private func visibleIndex(of id: String, near: Int = 0) -> Int? {
        let count = visibleCount
        let low = min(max(0, near - 2), count)
        for i in low..<max(low, min(count, near + 3)) where visibleID(i) == id { return i }
        if let searched { return searched.position(of: id) }
        if matches == nil { return window.position(of: id) }
        return (0..<count).first { visibleID($0) == id }
    }

    private mutating func reselect(_ id: String?) {
        if let id, let i = visibleIndex(of: id, near: selection) { selection = i } else { select(selection) }
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
            let count = " \(visibleCount)\(searched?.capped == true ? "+" : "")/\(window.count)"
            buffer.write(prompt, x: area.x, y: area.y, maxX: area.maxX - CellWidth.of(count))
            buffer.write(count, x: area.maxX - CellWidth.of(count), y: area.y, style: CellStyle(fg: .foregroundMuted))
            area = area.inset(top: 1)
        }
        pageSize = max(1, area.height)
        select(selection)
        if visibleCount == 0 {
            let message = filter.isEmpty ? emptyMessage : "no matches for “\(filter)”"
            buffer.fill(area.row(0), style: .plain)
            buffer.write(
                message, x: area.x + 1, y: area.y, style: CellStyle(fg: .foregroundMuted, attributes: .italic),
                maxX: area.maxX)
            return
        }
        let margin = min(scrollMargin, (pageSize - 1) / 2)
        if selection - margin < scrollOffset { scrollOffset = selection - margin }
        if selection + margin >= scrollOffset + pageSize { scrollOffset = selection + margin - pageSize + 1 }
        scrollOffset = max(0, min(scrollOffset, max(0, visibleCount - pageSize)))
        let marker = context.glyphs.selectionMarker
        for (i, shown) in (scrollOffset..<min(visibleCount, scrollOffset + pageSize)).enumerated() {
            let row = visibleRow(shown)
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
