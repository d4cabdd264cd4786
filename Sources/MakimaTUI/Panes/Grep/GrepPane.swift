import Foundation
import MakimaKit

/// `:grep PATTERN`: the cached output lines, titles and plans of every task that hold the
/// pattern, newest first (task title, status, age, the line with the match highlighted);
/// Enter opens the task's output at that line with the pattern searched (`n`/`N` go on).
/// The results are a search: `n`/`N` step through its hits, wrapping, with two rows kept in
/// view either side of the selected one, and the header says which hit of how many.
public struct GrepPane: Pane {
    public let id = PaneID.grep
    public var section: PaneID { .home }
    public let pattern: String
    public private(set) var list: ListView
    /// Still waiting for the search (run off the UI thread).
    public private(set) var searching: Bool
    /// Where each row leads: the task and the line that matched.
    public private(set) var hits: [String: OutputSearchHit] = [:]

    public init(pattern: String) {
        self.pattern = pattern
        searching = true
        list = ListView(rows: [], emptyMessage: "searching the cached output…")
        list.scrollMargin = TaskOutputPane.hitContext
    }

    public var title: String { "GREP" }
    public var keyContexts: [KeyContext] { [.search, .list] }
    public var isEditingText: Bool { list.isEditingFilter }
    public var isTopLevel: Bool { false }

    /// The search's answer: its rows, or what went wrong. Built again when a hit's task
    /// changes in the stores (or its age would read differently): the selection stays.
    public mutating func update(_ model: GrepResultsModel) {
        searching = false
        hits = model.hits
        list.emptyMessage = model.emptyMessage
        list.setRows(model.rows)
    }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        if let response = list.handleMovement(action) { return response }
        if action == .searchNext || action == .searchPrevious {
            list.moveWrapping(by: action == .searchNext ? 1 : -1)
            return .handled
        }
        guard action == .open, let row = list.selectedRow, let hit = hits[row.id] else { return .ignored }
        return .request(.openGrepHit(taskID: hit.taskID, pattern: pattern, line: hit.line))
    }

    public mutating func edit(_ edit: TextEdit) -> PaneResponse { list.editFilter(edit) ? .handled : .ignored }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        GridTexture.render(into: &buffer, rect: region, context: context)
        let n = list.rows.count
        let limit = n >= CacheStore.maxSearchHits ? " (the newest \(n))" : ""
        let detail =
            searching
            ? "searching…"
            : "“\(oneLine(pattern))” · \(n) line\(n == 1 ? "" : "s")\(limit) · \(position) · Enter opens"
        PaneHeader.render(
            title: title, term: nil, detail: detail, into: &buffer,
            row: region.inset(left: 1, right: 1).row(0), context: context)
        list.render(into: &buffer, rect: region.inset(left: 1, top: 2, right: 1), context: context)
    }

    /// `3/17`: the selected hit among those shown (a `/` filter narrows them), `0/0` with none.
    public var position: String {
        let shown = list.visibleCount
        return "\(shown == 0 ? 0 : list.selection + 1)/\(shown)"
    }
}

/// The rows of a search's hits, and where each leads.
public struct GrepResultsModel: Sendable, Equatable {
    public var rows: [ListRow]
    public var hits: [String: OutputSearchHit]
    public var emptyMessage: String

    /// What the pane shows for `hits`: each task's title and status from `tasks` (the stores,
    /// else the cache), its age, and the line with every match of `pattern` highlighted.
    public static func from(
        _ hits: [OutputSearchHit], pattern: String, tasks: [String: MeshTask], now: Date, clock: ClockOffset,
        failure: String? = nil
    ) -> GrepResultsModel {
        var rows: [ListRow] = []
        var links: [String: OutputSearchHit] = [:]
        for (i, hit) in hits.enumerated() {
            let task = tasks[hit.taskID]
            var r = RowLine()
            r.column(oneLine(task?.displayTitle ?? hit.taskID), 28, CellStyle(fg: .foreground))
            let status = task?.status
            r.column(status?.rawValue.uppercased() ?? "", 10, status.map(StatusStyle.taskStyle) ?? .plain)
            r.column(ago(hit.lastActive ?? task?.updatedAt, now: now, clock: clock), 9, CellStyle(fg: .foregroundMuted))
            var line = r.line
            line.append(String(repeating: " ", count: RowLine.gap), .plain)
            line.append(highlighted(hit.lineNumber == 0 ? "plan: " + hit.line : hit.line, pattern: pattern))
            let id = String(i)
            rows.append(ListRow(id: id, line: line, searchText: hit.line))
            links[id] = hit
        }
        let empty = failure ?? "no cached output, title or plan holds “\(oneLine(pattern))”"
        return GrepResultsModel(rows: rows, hits: links, emptyMessage: empty)
    }

    /// `text` on one line with each case-insensitive match of `pattern` in the search colours.
    static func highlighted(_ text: String, pattern: String) -> StyledLine {
        let line = oneLine(text)
        var out = StyledLine()
        let body = CellStyle(fg: .body)
        let match = CellStyle(fg: .background, bg: .warn, attributes: .bold)
        var rest = line[...]
        let needle = oneLine(pattern)
        while !needle.isEmpty, let r = rest.range(of: needle, options: .caseInsensitive) {
            if r.lowerBound > rest.startIndex { out.append(String(rest[..<r.lowerBound]), body) }
            out.append(String(rest[r]), match)
            rest = rest[r.upperBound...]
        }
        if !rest.isEmpty || out.spans.isEmpty { out.append(String(rest), body) }
        return out
    }
}
