import MakimaKit

extension LiveDashboard {
    static let notificationsRowLabel = "Notifications"

    /// Inside tmux, asks once whether passthrough is allowed. When it is off, desktop
    /// notifications silently lose their OSC: the operator is told so by a toast at start,
    /// and a SYSTEM// row keeps saying it after the toast is gone.
    func askTmuxPassthrough() {
        let bus = session.bus
        // Weak from the start: the answer comes on the launcher's thread, and a closure holding
        // the dashboard there would make that thread the last owner after a quick quit (its
        // deinit off the UI thread, its controllers' unowned references already gone).
        notificationController.notifier.askTmuxPassthrough { [weak self] global, pane in
            bus.post { self?.tmuxPassthroughAnswered(global: global, pane: pane) }
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
