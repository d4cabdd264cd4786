import MakimaKit

extension LiveDashboard {
    /// New notifications of the kinds that are on: a toast each, one bell for the batch, and a
    /// desktop notification (coalesced; see `DesktopNotifier`).
    func announce(_ all: [MeshNotification]) {
        let notifications = notifier.preferences.filter(all)
        guard !notifications.isEmpty else { return }
        if notifier.preferences.bell { session.bell() }
        var named: [MeshNotification] = []
        for var n in notifications {
            // The engine names a task by its id; the stores usually know its title.
            if case .task(let id) = n.link, n.body.hasPrefix(id), let title = taskTitle(id) {
                n.body = title + n.body.dropFirst(id.count)
            }
            named.append(n)
            toast(ToastQueue.notice(for: n))
        }
        deliverDesktop(notifier.notify(named, now: Clocks.monotonic()))
    }

    /// Writes the notifier's terminal bytes through the backend (UI thread, between frames) and
    /// comes back for what it held while coalescing.
    func deliverDesktop(_ delivery: DesktopNotifier.Delivery) {
        session.writeTerminalControl(delivery.terminalBytes)
        guard let after = delivery.flushAfter else { return }
        session.schedule(after: after, id: "desktop-notification") { [weak self] in
            guard let self else { return }
            self.deliverDesktop(self.notifier.flush(now: Clocks.monotonic()))
        }
    }

    func toast(_ notice: NoticeLine) {
        if toasts.push(notice) { showToast() } else { session.setToast(toasts.display) }
    }

    /// Shows the current toast for its time, then the next one, until none wait.
    private func showToast() {
        session.setToast(toasts.display)
        session.schedule(after: toasts.seconds, id: "toast") { [weak self] in
            guard let self else { return }
            if self.toasts.advance() != nil { self.showToast() } else { self.session.setToast(nil) }
        }
    }

    func taskTitle(_ id: String) -> String? {
        hub.tasks.details[id].map { oneLine($0.displayTitle) } ?? taskTitles[id]
    }
}
