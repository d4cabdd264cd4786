import Foundation

/// The live connection as the masthead pill shows it (`WS//IDLE|CONNECTING|ONLINE|OFFLINE`).
public struct ConnectionStatus: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        case idle
        case connecting
        case online
        /// `nextRetry` nil: no retry is planned (the key was refused, or setup failed).
        case offline(nextRetry: Date?)
    }

    public var phase: Phase
    /// Why the last connection ended or failed; cleaned of control characters, never the key.
    public var lastError: String?
    /// The server refused the key (401/403). Retrying cannot help until the key changes.
    public var unauthorized: Bool

    public init(phase: Phase, lastError: String? = nil, unauthorized: Bool = false) {
        self.phase = phase
        self.lastError = lastError
        self.unauthorized = unauthorized
    }

    public static let idle = ConnectionStatus(phase: .idle)

    public var label: String {
        switch phase {
        case .idle: "IDLE"
        case .connecting: "CONNECTING"
        case .online: "ONLINE"
        case .offline: "OFFLINE"
        }
    }

    public var isOnline: Bool { phase == .online }
}
