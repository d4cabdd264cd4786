import Foundation
import MakimaKit

/// A kind of list's columns in its pane, described once: each column's header, width and
/// cell, the orders `s` steps through (each with its row key), and the noun the pane's header
/// counts in. A list pane's model is `columns.model(state, filter:, now:)`.
struct ListColumns<Item: Identifiable & Sendable>: Sendable where Item.ID == String {
    struct Column: Sendable {
        let title: String
        /// Cells wide (cut with an ellipsis when longer); nil: the rest of the row.
        let width: Int?
        /// The item's cell; its ages are measured with `time`.
        let cell: @Sendable (Item, _ time: TimeBase) -> (text: String, style: CellStyle)

        init(
            _ title: String, _ width: Int?, _ cell: @escaping @Sendable (Item, _ time: TimeBase) -> (String, CellStyle)
        ) {
            self.title = title
            self.width = width
            self.cell = { cell($0, $1) }
        }
    }

    /// One order a pane offers: its name and each row's key in it (ascending).
    struct Sort: Sendable {
        let name: String
        let key: @Sendable (Item) -> String

        init(_ name: String, _ key: @escaping @Sendable (Item) -> String) {
            self.name = name
            self.key = key
        }
    }

    let noun: String
    let columns: [Column]
    var sorts: [Sort] = []

    /// One item's row; `/` matches its whole text.
    func row(_ item: Item, time: TimeBase) -> ListRow {
        var r = RowLine()
        for column in columns {
            let (text, style) = column.cell(item, time)
            r.column(text, column.width, style)
        }
        return ListRow(id: item.id, line: r.line, sortKeys: sorts.map { $0.key(item) })
    }

    /// The pane's model: a row per item, the header, the sorts, and the header detail
    /// (`filter`, the count, STALE age, error).
    @MainActor
    func model(_ state: ListState<Item>, filter: String?, now: Date, clock: ClockOffset) -> ListPaneViewModel {
        var m = ListPaneModels.model(
            state.items.map { row($0, time: TimeBase(now: now, serverClock: clock)) }, state, now: now, noun: noun,
            filter: filter)
        m.columns = RowLine.header(columns.map { ($0.title, $0.width) })
        m.sorts = sorts.map(\.name)
        return m
    }
}
