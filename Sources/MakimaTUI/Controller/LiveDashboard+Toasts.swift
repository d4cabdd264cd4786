import MakimaKit

extension LiveDashboard {
    /// New notifications: a toast each, one bell for the batch, and tmux's status line when
    /// the dashboard runs inside tmux.
    func announce(_ notifications: [MeshNotification]) {
        guard !notifications.isEmpty else { return }
        session.bell()
        for n in notifications {
            // The engine names a task by its id; the stores usually know its title. When they
            // do not, the task is fetched and the toast waits for it (a few seconds at most).
            if case .task(let id) = n.link, n.body.hasPrefix(id), taskTitle(id) == nil {
                awaitTitle(of: id, for: n)
                continue
            }
            show(n)
        }
    }

    private func show(_ notification: MeshNotification, title fallback: String? = nil) {
        let line = ToastQueue.notice(for: named(notification, fallback: fallback))
        toast(line)
        tmux?.notify(line.text)
    }

    /// The notification with its task named by title (or `fallback`) instead of its id.
    func named(_ notification: MeshNotification, fallback: String? = nil) -> MeshNotification {
        var n = notification
        if case .task(let id) = n.link, n.body.hasPrefix(id), let title = taskTitle(id) ?? fallback {
            n.body = title + n.body.dropFirst(id.count)
        }
        return n
    }

    static let titleWaitSeconds = 3.0

    private func awaitTitle(of id: String, for n: MeshNotification) {
        let first = awaitingTitle[id] == nil
        // Bounded: a flood of notifications for unknown tasks cannot grow this without end.
        guard first ? awaitingTitle.count < 64 : awaitingTitle[id, default: []].count < 8 else {
            return show(n, title: "a task")
        }
        awaitingTitle[id, default: []].append(n)
        guard first else { return }
        engine?.loadDetail(.task(id))
        session.schedule(after: Self.titleWaitSeconds, id: "title-" + id) { [weak self] in
            self?.titleArrived(for: id)
        }
    }

    /// The task's detail arrived (or the wait ended, or it does not exist): its toasts go out.
    func titleArrived(for id: String) {
        guard let waiting = awaitingTitle.removeValue(forKey: id) else { return }
        session.cancelTimer(id: "title-" + id)
        for n in waiting { show(n, title: "a task") }
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
