import MakimaKit

/// What the Settings pane shows (ABOUT and the live counters). The key is only ever its
/// masked form.
public struct SettingsFacts: Equatable, Sendable {
    public var server: String
    public var maskedKey: String
    public var keySource: String
    public var cachePath: String
    public var version: String
    public var connection: String
    public var counters: StreamCounters
    public var connectionsOpened: Int

    public init(
        server: String, maskedKey: String, keySource: String, cachePath: String, version: String,
        connection: String, counters: StreamCounters = StreamCounters(), connectionsOpened: Int = 0
    ) {
        self.server = server
        self.maskedKey = maskedKey
        self.keySource = keySource
        self.cachePath = cachePath
        self.version = version
        self.connection = connection
        self.counters = counters
        self.connectionsOpened = connectionsOpened
    }

    /// Reconnects: connections after the first.
    public var reconnects: Int { max(0, connectionsOpened - 1) }

    public var model: ListPaneViewModel {
        let rows: [(String, String)] = [
            ("server", server),
            ("api key", "\(maskedKey) (\(keySource))"),
            ("cache", cachePath),
            ("version", version),
            ("connection", connection),
            ("events applied", String(counters.eventsApplied)),
            ("duplicates dropped", String(counters.duplicatesDropped)),
            ("reconnects", String(reconnects)),
            ("resyncs", String(counters.resyncs)),
            ("hole fills", String(counters.holeFills)),
            ("events lost", String(counters.eventsLost)),
            ("malformed frames skipped", String(counters.malformedSkipped)),
        ]
        let lines = rows.map { label, value in
            var r = RowLine()
            r.column(label.uppercased(), 26, CellStyle(fg: .foregroundMuted))
            r.column(value, nil, CellStyle(fg: .foreground))
            return ListRow(id: label, line: r.line)
        }
        return ListPaneViewModel(rows: lines, emptyMessage: "", detail: "ABOUT · COUNTERS")
    }
}
