import Foundation
import Observation

@MainActor @Observable
public final class ConnectionStore {
    /// Whether the dashboard has a key the server takes. With one, what the connection says is
    /// `link`; without, this says why not (Home's Network row reads both).
    public enum Access: Sendable, Equatable {
        case signedIn
        /// No server configured yet.
        case notConfigured
        /// The operator signed out (the key and profile were removed).
        case signedOut
        /// The server refused the key (401): nothing is fetched until a key is taken again.
        case keyRefused
    }

    public var access = Access.signedIn
    public var link: ConnectionStatus = .idle
    public var lastNotice: String?
    /// The stream's counters and how many connections the engine opened (Settings' figures),
    /// copied from the engine after each batch when they changed.
    public var counters = StreamCounters()
    public var connectionsOpened = 0
    /// The server's clock against ours: every server time a pane shows is read through it.
    public var serverClock = ClockOffset.zero
    public init() {}
}
