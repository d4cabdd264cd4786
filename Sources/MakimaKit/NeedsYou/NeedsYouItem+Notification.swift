import Foundation

extension NeedsYouItem {
    /// The notification for an item of a kind no single live event announces: a gate read
    /// ready (from a list as well as from its event), a daemon gone offline holding tasks (the
    /// daemons list says so, not the stream). Questions and failures notify from their events
    /// (`NotificationPolicy`); nil for them.
    public var notification: MeshNotification? {
        let kind: MeshNotification.Kind
        let title: String
        switch self.kind {
        case .gate: (kind, title) = (.gateReady, "Completion gate ready")
        case .offline: (kind, title) = (.daemonOffline, "Daemon offline holding tasks")
        case .question, .failed: return nil
        }
        return MeshNotification(
            id: .needsYou(id), kind: kind, title: title, body: text, link: link ?? .daemon(subjectID),
            at: since ?? Date())
    }
}
