import Foundation
import MakimaKit

/// The connection's state on screen outside the stores: the 401 and what it stops, and Home's
/// Network row.
extension LiveDashboard {
    static let refusedKey = "the server refused the API key — r retries it · K enters a new key"

    /// A 401 anywhere (a list, a detail, the WebSocket upgrade): the pill says AUTH at once,
    /// polling stops, the live connection ends (no reconnects with a refused key), what is on
    /// screen stays, marked stale. `r` asks the server again (`retryKey`), `K` takes a new key.
    func keyRefused() {
        guard !unauthorized else { return }
        unauthorized = true
        session.cancelTimer(id: "poll")
        engine?.halt()
        session.setConnectionPill(.auth)
        hub.markAllStale()
        session.setBanner(NoticeLine(Self.refusedKey, level: .danger))
        setNetworkRow("KEY REFUSED", .danger)
    }

    func setNetworkRow(_ value: String, _ level: StatusRow.Level) {
        session.updateHome { $0.setStatusRow(StatusRow("Network", value, level)) }
    }
}
