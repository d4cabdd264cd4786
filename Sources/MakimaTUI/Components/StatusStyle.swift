import MakimaKit

/// The colour each server status is drawn in (docs/design.md, "Status colours": running
/// accent, completed ok, failed danger, waiting muted). Unknown statuses are muted, never hidden.
public enum StatusStyle {
    public static func task(_ status: TaskStatus) -> ColorRole {
        switch status {
        case .running: return .accent
        case .completed: return .ok
        case .failed: return .danger
        case .cancelled: return .warn
        default: return .foregroundMuted
        }
    }

    public static func daemon(_ status: DaemonStatus) -> ColorRole {
        switch status {
        case .online: return .ok
        case .busy: return .accent
        case .offline: return .danger
        default: return .foregroundMuted
        }
    }

    public static func contract(_ status: ContractStatus) -> ColorRole {
        switch status {
        case .active: return .accent
        case .completed: return .ok
        default: return .foregroundMuted
        }
    }
}
