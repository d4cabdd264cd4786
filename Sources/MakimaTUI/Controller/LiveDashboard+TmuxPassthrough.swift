import MakimaKit

extension LiveDashboard {
    static let notificationsRowLabel = "Notifications"

    /// Inside tmux, asks once whether passthrough is allowed. When it is off, desktop
    /// notifications silently lose their OSC: the operator is told so by a toast at start,
    /// and a SYSTEM// row keeps saying it after the toast is gone.
    func askTmuxPassthrough() {
        let bus = session.bus
        notificationController.notifier.askTmuxPassthrough { global, pane in
            bus.post { [weak self] in self?.tmuxPassthroughAnswered(global: global, pane: pane) }
        }
    }

    func tmuxPassthroughAnswered(global: String?, pane: String?) {
        let notice = notificationController.notifier.passthroughAnswered(global: global, pane: pane)
        let row = notice.map { _ in
            StatusRow(Self.notificationsRowLabel, "bell + tmux message (no passthrough)", .warn)
        }
        session.updateHome { $0.setStatusRow(Self.notificationsRowLabel, row) }
        if let notice { notificationController.toast(NoticeLine(notice, level: .warn)) }
    }
}
