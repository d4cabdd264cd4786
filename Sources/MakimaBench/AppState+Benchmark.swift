import MakimaTUI

extension AppState {
    /// The dashboard every benchmark draws: online, on makima.jp, at a fixed time.
    static func benchmark() -> AppState {
        AppState(masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .online, clock: "12:00"))
    }
}
