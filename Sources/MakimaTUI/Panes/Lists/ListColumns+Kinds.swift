import Foundation
import MakimaKit

// The columns of the list panes built from `ListColumns` (Tasks and Directives make their rows
// in `ListPaneModels`: a window over a large list, a column only some rows have).

extension ListColumns where Item == Contract {
    static let contracts = ListColumns(
        noun: "contract",
        columns: [
            Column("name", 44) { c, _ in (oneLine(c.name), CellStyle(fg: .foreground)) },
            Column("phase", 12) { c, _ in (oneLine(c.phase).uppercased(), CellStyle(fg: .foregroundMuted)) },
            Column("status", 10) { c, _ in (c.status.rawValue.uppercased(), StatusStyle.contractStyle(c.status)) },
            Column("updated", nil) { c, time in (time.ago(c.updatedAt), CellStyle(fg: .foregroundMuted)) },
        ])
}

extension ListColumns where Item == Daemon {
    /// Sorts: host A–Z; offline first, then busy, online; oldest heartbeat first (the ones to
    /// look at); busiest first.
    static let daemons = ListColumns(
        noun: "daemon",
        columns: [
            Column("host", 28) { d, _ in (oneLine(d.hostname ?? d.id), CellStyle(fg: .foreground)) },
            Column("status", 8) { d, _ in (d.status.rawValue.uppercased(), StatusStyle.daemonStyle(d.status)) },
            Column("heartbeat", 14) { d, time in
                (d.lastHeartbeat.map { "♥ " + time.ago($0) } ?? "♥ never", CellStyle(fg: .foregroundMuted))
            },
            Column("load", 6) { d, _ in
                (
                    d.maxConcurrentTasks.map { "\(d.runningTasks ?? 0)/\($0)" } ?? "\(d.runningTasks ?? 0)",
                    CellStyle(fg: .body)
                )
            },
            Column("version", nil) { d, _ in
                (d.version.map { "v" + oneLine($0) } ?? "", CellStyle(fg: .foregroundMuted))
            },
        ],
        sorts: [
            Sort("host") { ($0.hostname ?? $0.id).lowercased() },
            Sort("status") { [DaemonStatus.offline: "0", .busy: "1", .online: "2"][$0.status] ?? "3" },
            Sort("heartbeat") { d in
                d.lastHeartbeat.map { String(format: "%020.3f", max(0, $0.timeIntervalSince1970)) } ?? ""
            },
            Sort("load") { d in
                let load = d.maxConcurrentTasks.map { Double(d.runningTasks ?? 0) / Double(max(1, $0)) } ?? 0
                return String(format: "%09.4f", max(0, 1000 - load * 100))
            },
        ])
}

extension ListColumns where Item == ListenSession {
    static let listen = ListColumns(
        noun: "session",
        columns: [
            Column("session", 40) { s, time in (ListenTitle.of(s, clock: time.serverClock), CellStyle(fg: .foreground))
            },
            Column("started", 16) { s, time in
                (
                    time.ago(s.startedAt) + (s.endedAt == nil && s.startedAt != nil ? " · live" : ""),
                    CellStyle(fg: s.endedAt == nil ? .accent : .foregroundMuted)
                )
            },
            Column("transcript", nil) { s, _ in
                (oneLine(s.transcriptPreview ?? ""), CellStyle(fg: .bodySoft, attributes: .italic))
            },
        ])
}
