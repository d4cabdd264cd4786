import Foundation
import MakimaKit

extension ConnectionPillState {
    /// The pill for the supervisor's status; an offline retry time becomes whole seconds
    /// from `now` (the event loop counts them down itself).
    public init(_ status: ConnectionStatus, now: Date) {
        switch status.phase {
        case .idle: self = .idle
        case .connecting: self = .connecting
        case .online: self = .online
        case .offline(let next?): self = .offline(secondsToRetry: Int(max(0, next.timeIntervalSince(now)).rounded(.up)))
        case .offline(nil): self = .offline(secondsToRetry: nil)
        }
    }
}
