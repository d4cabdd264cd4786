import Foundation
import MakimaKit

/// The list panes' view models from the stores. Pure: the same stores and `now` give the
/// same rows. Server text was cleaned at decode time; here it is folded onto one line.
@MainActor
public enum ListPaneModels {
    public static func contracts(_ hub: StoreHub, status: ContractStatus?, now: Date) -> ListPaneViewModel {
        let state = hub.contracts.list(status)
        let rows = state.items.map { c in
            var r = RowLine()
            r.column(oneLine(c.name), 44, CellStyle(fg: .foreground))
            r.column(oneLine(c.phase).uppercased(), 12, CellStyle(fg: .foregroundMuted))
            r.column(c.status.rawValue.uppercased(), 10, CellStyle(fg: StatusStyle.contract(c.status)))
            r.column(ago(c.updatedAt, now: now), nil, CellStyle(fg: .foregroundMuted))
            return ListRow(id: c.id, line: r.line)
        }
        return model(rows, state, now: now, noun: "contract", filter: status?.rawValue ?? "all")
    }

    public static func tasks(_ hub: StoreHub, status: TaskStatus?, now: Date) -> ListPaneViewModel {
        let state = hub.tasks.list(.init(status: status))
        let rows = state.items.map { t in
            var r = RowLine()
            r.column(oneLine(t.displayTitle), 52, CellStyle(fg: .foreground))
            r.column(
                t.status.rawValue.uppercased(), 10,
                CellStyle(fg: StatusStyle.task(t.status), attributes: t.status == .failed ? .bold : []))
            r.column(ago(t.updatedAt, now: now), nil, CellStyle(fg: .foregroundMuted))
            return ListRow(id: t.id, line: r.line)
        }
        return model(rows, state, now: now, noun: "task", filter: status?.rawValue ?? "all")
    }

    public static func directives(_ hub: StoreHub, now: Date) -> ListPaneViewModel {
        let state = hub.directives.list
        let rows = state.items.map { d in
            var r = RowLine()
            r.column(oneLine(d.title), 44, CellStyle(fg: .foreground))
            r.column(oneLine(d.status).uppercased(), 10, CellStyle(fg: .foregroundMuted))
            if d.hasPendingQuestion {
                r.column(
                    "? " + oneLine(d.pendingQuestion?.text ?? "a question is waiting"), nil,
                    CellStyle(fg: .warn, attributes: .bold))
            }
            return ListRow(id: d.id, line: r.line)
        }
        let waiting = state.items.filter(\.hasPendingQuestion).count
        return model(rows, state, now: now, noun: "directive", filter: waiting > 0 ? "\(waiting) waiting" : nil)
    }

    public static func daemons(_ hub: StoreHub, now: Date) -> ListPaneViewModel {
        let state = hub.daemons.list
        let rows = state.items.map { d in
            var r = RowLine()
            r.column(oneLine(d.hostname ?? d.id), 28, CellStyle(fg: .foreground))
            r.column(d.status.rawValue.uppercased(), 8, CellStyle(fg: StatusStyle.daemon(d.status)))
            r.column(d.lastHeartbeat.map { "♥ " + ago($0, now: now) } ?? "♥ never", 14, CellStyle(fg: .foregroundMuted))
            let load = d.maxConcurrentTasks.map { "\(d.runningTasks ?? 0)/\($0)" } ?? "\(d.runningTasks ?? 0)"
            r.column(load, 6, CellStyle(fg: .body))
            r.column(d.version.map { "v" + oneLine($0) } ?? "", nil, CellStyle(fg: .foregroundMuted))
            return ListRow(id: d.id, line: r.line, searchText: r.line.text)
        }
        let online = state.items.filter { $0.status.isOnline }.count
        return model(
            rows, state, now: now, noun: "daemon", filter: "\(online) online / \(state.items.count - online) offline")
    }

    public static func listen(_ hub: StoreHub, now: Date) -> ListPaneViewModel {
        let state = hub.listen.list
        let rows = state.items.map { s in
            var r = RowLine()
            r.column(oneLine(s.title ?? s.id), 40, CellStyle(fg: .foreground))
            let started = ago(s.startedAt, now: now) + (s.endedAt == nil && s.startedAt != nil ? " · live" : "")
            r.column(started, 16, CellStyle(fg: s.endedAt == nil ? .accent : .foregroundMuted))
            r.column(oneLine(s.transcriptPreview ?? ""), nil, CellStyle(fg: .bodySoft, attributes: .italic))
            return ListRow(id: s.id, line: r.line)
        }
        return model(rows, state, now: now, noun: "session", filter: nil)
    }

    /// Rows plus the header detail (filter · count · STALE age · error) and the empty message.
    static func model<T>(_ rows: [ListRow], _ state: ListState<T>, now: Date, noun: String, filter: String?)
        -> ListPaneViewModel
    {
        let freshness = Freshness.of(state, now: now)
        var detail: [String] = []
        if let filter { detail.append(filter.uppercased()) }
        if state.hasLoaded || !rows.isEmpty { detail.append("\(rows.count) \(noun)\(rows.count == 1 ? "" : "s")") }
        if let marker = freshness.marker { detail.append(marker) }
        if case .failed(_, let message) = freshness { detail.append(message) }
        let empty: String
        switch freshness {
        case .loading: empty = "loading…"
        case .failed(nil, let message): empty = "could not load: \(message)"
        case .unknown: empty = "no data yet"
        default: empty = "no \(noun)s"
        }
        return ListPaneViewModel(rows: rows, emptyMessage: empty, detail: detail.joined(separator: " · "))
    }
}
