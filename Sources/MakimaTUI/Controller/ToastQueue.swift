import MakimaKit

/// Toasts shown one at a time above the footer, each for `seconds` (shorter while others
/// wait, so a busy mesh does not build a backlog); the ones waiting are counted in the one
/// shown. Old ones are dropped past `limit` (the bell and the Notifications store have them).
struct ToastQueue: Equatable {
    static let limit = 8
    private(set) var current: NoticeLine?
    private var waiting: [NoticeLine] = []

    /// Queues a toast; true when it is shown right away (the caller starts the timer).
    mutating func push(_ notice: NoticeLine) -> Bool {
        guard current != nil else {
            current = notice
            return true
        }
        waiting.append(notice)
        if waiting.count > Self.limit { waiting.removeFirst(waiting.count - Self.limit) }
        return false
    }

    /// The shown toast is over: the next one, if any, is shown.
    mutating func advance() -> NoticeLine? {
        current = waiting.isEmpty ? nil : waiting.removeFirst()
        return current
    }

    /// How long the current toast stays.
    var seconds: Double { waiting.isEmpty ? 5 : 2 }

    /// What the line reads: the toast, and how many more are waiting.
    var display: NoticeLine? {
        guard var line = current else { return nil }
        if !waiting.isEmpty { line.text += "  (+\(waiting.count) more)" }
        return line
    }

    static func notice(for n: MeshNotification) -> NoticeLine {
        let level: StatusRow.Level =
            switch n.kind {
            case .taskFailed: .danger
            case .taskCompleted: .ok
            case .supervisorQuestion, .gateReady, .daemonOffline: .warn
            }
        return NoticeLine("\(n.title): \(oneLine(n.body))", level: level)
    }
}
