import Foundation
import MakimaKit

/// A refused key and what it stops. Whether the key is refused is the connection store's
/// (`ConnectionStore.access`): Home's Network row and the task view's note read it there.
extension LiveDashboard {
    static let refusedKey = "the server refused the API key — r retries it · K enters a new key"

    /// A 401 anywhere (a list, a detail, the WebSocket upgrade): the pill says AUTH at once,
    /// polling stops, the live connection ends (no reconnects with a refused key), what is on
    /// screen stays, marked stale. `r` asks the server again (`retryKey`), `K` takes a new key.
    func keyRefused() {
        guard !unauthorized else { return }
        hub.connection.access = .keyRefused
        session.cancelTimer(id: "poll")
        engine?.halt()
        session.setConnectionPill(.auth)
        hub.markAllStale()
        session.setBanner(NoticeLine(Self.refusedKey, level: .danger))
    }
}
