import MakimaKit

/// How each server status is drawn (docs/design.md, "Status colours": running accent,
/// completed ok, failed danger, waiting muted). Unknown statuses are muted, never hidden.
///
/// Each status also has its own attribute, so statuses stay apart without colour (`NO_COLOR`,
/// `--color=never`), where every role draws alike: running/busy/active bold, completed and
/// online plain, failed/offline reverse, cancelled underlined, waiting and unknown dim.
public enum StatusStyle {
    public static func task(_ status: TaskStatus) -> ColorRole { taskStyle(status).fg }

    public static func daemon(_ status: DaemonStatus) -> ColorRole { daemonStyle(status).fg }

    public static func contract(_ status: ContractStatus) -> ColorRole { contractStyle(status).fg }

    public static func taskStyle(_ status: TaskStatus) -> CellStyle {
        switch status {
        case .running: return CellStyle(fg: .accent, attributes: .bold)
        case .completed: return CellStyle(fg: .ok)
        case .failed: return CellStyle(fg: .danger, attributes: [.bold, .reverse])
        case .cancelled: return CellStyle(fg: .warn, attributes: .underline)
        default: return CellStyle(fg: .foregroundMuted, attributes: .dim)
        }
    }

    public static func daemonStyle(_ status: DaemonStatus) -> CellStyle {
        switch status {
        case .online: return CellStyle(fg: .ok)
        case .busy: return CellStyle(fg: .accent, attributes: .bold)
        case .offline: return CellStyle(fg: .danger, attributes: [.bold, .reverse])
        default: return CellStyle(fg: .foregroundMuted, attributes: .dim)
        }
    }

    public static func contractStyle(_ status: ContractStatus) -> CellStyle {
        switch status {
        case .active: return CellStyle(fg: .accent, attributes: .bold)
        case .completed: return CellStyle(fg: .ok)
        default: return CellStyle(fg: .foregroundMuted, attributes: .dim)
        }
    }

    /// A directive's status (free text on the server): waiting on a question is the loud one.
    public static func directiveStyle(_ status: String, pendingQuestion: Bool) -> CellStyle {
        if pendingQuestion { return CellStyle(fg: .warn, attributes: [.bold, .reverse]) }
        switch status.lowercased() {
        case "active", "running": return CellStyle(fg: .accent, attributes: .bold)
        case "completed", "done": return CellStyle(fg: .ok)
        case "failed": return CellStyle(fg: .danger, attributes: [.bold, .reverse])
        default: return CellStyle(fg: .foregroundMuted, attributes: .dim)
        }
    }
}
