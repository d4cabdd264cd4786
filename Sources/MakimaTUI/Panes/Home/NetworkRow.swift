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
}
