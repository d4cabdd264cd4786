import MakimaKit

extension LiveDashboard {
    /// New notifications: a toast each, one bell for the batch, and tmux's status line when
    /// the dashboard runs inside tmux.
    func announce(_ notifications: [MeshNotification]) {
        guard !notifications.isEmpty else { return }
        session.bell()
        for var n in notifications {
            // The engine names a task by its id; the stores usually know its title.
            if case .task(let id) = n.link, n.body.hasPrefix(id), let title = taskTitle(id) {
                n.body = title + n.body.dropFirst(id.count)
            }
            let line = ToastQueue.notice(for: n)
            toast(line)
            tmux?.notify(line.text)
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
