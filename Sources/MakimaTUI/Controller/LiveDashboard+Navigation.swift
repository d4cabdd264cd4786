import Foundation
import MakimaKit

extension LiveDashboard {
    /// Opens what a link names, on top of the current pane.
    func open(_ link: DeepLink) {
        switch link {
        case .task(let id): openTask(id)
        case .contract, .directive: break
        }
    }
}

extension LiveDashboard {
    /// `:notifications`: the recent ones, newest first, on top of the current pane.
    func showNotifications() {
        let (rows, links) = NotificationsPane.model(hub, now: Date())
        session.push(NotificationsPane(rows: rows, links: links))
    }

    /// `o`: opens what the newest notification is about.
    func openLatestNotification() {
        guard let newest = hub.notifications.items.last else {
            return toast(NoticeLine("no notifications yet", level: .muted))
        }
        open(newest.link)
    }
}
