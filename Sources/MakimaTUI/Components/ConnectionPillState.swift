/// The WebSocket state the masthead pill shows. The sync engine feeds it; the pill only reads it.
public enum ConnectionPillState: Equatable, Hashable, Sendable {
    case idle
    case connecting
    case online
    /// Disconnected; the next attempt is due in `secondsToRetry` seconds when known.
    case offline(secondsToRetry: Int?)
    /// The server refused the API key: nothing reconnects until a key is accepted again.
    case auth

    /// `WS//IDLE`, `WS//…`, `WS//ONLINE`, `WS//OFFLINE 12s`, `WS//AUTH`.
    public func label(glyphs: Glyphs = .unicode) -> String {
        switch self {
        case .idle: return "WS//IDLE"
        case .connecting: return "WS//" + (glyphs.isUnicode ? "…" : "...")
        case .online: return "WS//ONLINE"
        case .offline(let seconds?): return "WS//OFFLINE \(max(0, seconds))s"
        case .offline(nil): return "WS//OFFLINE"
        case .auth: return "WS//AUTH"
        }
    }

    public var role: ColorRole {
        switch self {
        case .idle: return .foregroundMuted
        case .connecting: return .warn
        case .online: return .ok
        case .offline: return .danger
        case .auth: return .warn
        }
    }
}
