import Foundation
import MakimaKit

/// `:notifications`: the recent notifications (task completed, failed, supervisor question),
/// newest first; Enter opens what the selected one is about.
public struct NotificationsPane: Pane {
    public let id = PaneID.notifications
    public var section: PaneID { .home }
    public private(set) var list: ListView
    /// Where each row leads, by row id.
    public private(set) var links: [String: DeepLink]

    public init(rows: [ListRow] = [], links: [String: DeepLink] = [:]) {
        list = ListView(rows: rows, emptyMessage: "no notifications yet")
        self.links = links
    }

    public var title: String { "NOTIFICATIONS" }
    public var keyContexts: [KeyContext] { [.list] }
    public var isEditingText: Bool { list.isEditingFilter }
    public var isTopLevel: Bool { false }

    public mutating func update(rows: [ListRow], links: [String: DeepLink]) {
        self.links = links
        list.setRows(rows)
    }

    /// The rows from the stores: time, kind, then the title and text on one line.
    @MainActor
    public static func model(
        _ hub: StoreHub, now: Date, timeZone: TimeZone = .current,
        named: (MeshNotification) -> MeshNotification = { $0 }
    ) -> (rows: [ListRow], links: [String: DeepLink]) {
        var rows: [ListRow] = []
        var links: [String: DeepLink] = [:]
        for raw in hub.notifications.items.reversed() {
            let n = named(raw)
            let id = n.id.description
            let level = ToastQueue.notice(for: n).level
            var r = RowLine()
            r.column(ListenTitle.clock(n.at, timeZone: timeZone), 8, CellStyle(fg: .foregroundMuted))
            r.column(oneLine(n.title).uppercased(), 20, CellStyle(fg: level.role, attributes: .bold))
            r.column(oneLine(n.body), nil, CellStyle(fg: .body))
            rows.append(ListRow(id: id, line: r.line, searchText: n.title + " " + n.body))
            links[id] = n.link
        }
        return (rows, links)
    }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        if let response = list.handleMovement(action) { return response }
        guard action == .open, let row = list.selectedRow, let link = links[row.id] else { return .ignored }
        return .request(.open(link))
    }

    public mutating func edit(_ edit: TextEdit) -> PaneResponse { list.editFilter(edit) ? .handled : .ignored }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        GridTexture.render(into: &buffer, rect: region, context: context)
        let n = list.rows.count
        PaneHeader.render(
            title: title, term: nil, detail: "\(n) recent · Enter opens", into: &buffer,
            row: region.inset(left: 1, right: 1).row(0), context: context)
        list.render(into: &buffer, rect: region.inset(left: 1, top: 2, right: 1), context: context)
    }
}
