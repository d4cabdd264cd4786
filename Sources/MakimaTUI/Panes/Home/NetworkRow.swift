import MakimaKit

extension StatusRow {
    /// Home's Network row, from the connection store: why there is no connection (no server,
    /// signed out, the key refused), else the link's state as the masthead pill names it.
    @MainActor
    static func network(_ connection: ConnectionStore) -> StatusRow {
        switch connection.access {
        case .notConfigured: StatusRow("Network", "NOT CONFIGURED", .warn)
        case .signedOut: StatusRow("Network", "SIGNED OUT", .warn)
        case .keyRefused: StatusRow("Network", "KEY REFUSED", .danger)
        case .signedIn: StatusRow("Network", connection.link.label, connection.link.isOnline ? .ok : .warn)
        }
    }

    /// Home's Server clock row: how far the server's clock is from ours, only when it is off
    /// by more than `ClockOffset.noticeable` (nil: no row). Every time shown is already read
    /// on our clock; the row says why the server's own pages may disagree.
    @MainActor
    static func serverClock(_ connection: ConnectionStore) -> StatusRow? {
        let offset = connection.serverClock
        return offset.isNoticeable ? StatusRow(serverClockLabel, offset.phrase, .warn) : nil
    }

    static let serverClockLabel = "Server clock"
}
