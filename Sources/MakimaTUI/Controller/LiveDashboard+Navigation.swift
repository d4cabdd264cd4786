import Foundation
import MakimaKit

/// Drilling down: detail panes pushed on the stack, their models kept bound to the stores,
/// "not found" when the server has no such object, notifications.
extension LiveDashboard {
    /// Opens what a link names, on top of the current pane, and fetches what it needs (its
    /// `Routes` entry says how).
    func open(_ link: DeepLink) {
        let now = self.now()
        detailOpened[link] = now
        let (route, id) = Routes.route(link)
        route.open(self, id, now)
        guard route.rebuild != nil else { return }
        session.cancelTimer(id: "poll")
        bindings.markDirty(.detail)
    }

    /// Selects row `id` of a list pane now, or once its list holds it.
    func select(_ id: String, in pane: PaneID) {
        var found = false
        session.updatePanes { $0.update(pane, as: ListPane.self) { found = $0.select(rowID: id) } }
        if found { pendingSelection[pane] = nil } else { pendingSelection[pane] = id }
    }

    /// After a list pane's rebuild: a row waiting to be selected is selected when it arrived.
    func selectPending(in pane: PaneID) {
        guard let id = pendingSelection[pane] else { return }
        select(id, in: pane)
    }

    /// Rebuilds the detail pane on top when the stores it read changed (or it was just
    /// pushed). Returns false when the top pane is not a detail pane.
    func rebuildDetail() -> Bool {
        let top = session.topPane
        let key: String
        if let link = Routes.link(shownBy: top), Routes.route(link).route.rebuild != nil {
            key = link.description
        } else if top is NotificationsPane {
            key = "notifications"
        } else if let p = top as? PickerPane {
            key = "pick/" + p.id.rawValue
        } else {
            return false
        }
        guard bindings.detailNeedsBuild(key) else { return true }
        bindings.build(.detail) { rebuild(top) }
        return true
    }

    private func rebuild(_ top: any Pane) {
        let now = self.now()
        if let link = Routes.link(shownBy: top) {
            let (route, id) = Routes.route(link)
            route.rebuild?(self, id, now)
            return
        }
        switch top {
        case is NotificationsPane:
            let (rows, links) = NotificationsPane.model(hub, now: now, named: { self.named($0, fallback: "a task") })
            replaceTop(as: NotificationsPane.self) { $0.update(rows: rows, links: links) }
        case let p as PickerPane:
            guard let scope = p.id.spec.scope else { return }
            let choices = scope.choices(hub)
            replaceTop(as: PickerPane.self) { $0.update(choices: choices) }
        default: break
        }
    }

    /// True when the list was fetched from the server after the link was opened and does not
    /// hold it.
    func listLacks<T>(_ state: ListState<T>, _ link: DeepLink) -> Bool {
        guard let opened = detailOpened[link], let at = state.fetchedAt, !state.isStale else { return false }
        return at >= opened
    }

    func replaceTop<P: Pane>(as type: P.Type, _ body: (inout P) -> Void) {
        session.updatePanes { stack in
            stack.withTop { pane in
                guard var p = pane as? P else { return }
                body(&p)
                pane = p
            }
        }
    }

    /// Puts the not-found screen in place of the detail that was waiting for `link`.
    func showNotFound(_ link: DeepLink) {
        let (route, id) = Routes.route(link)
        if case .task = link { output = nil }
        pendingSelection[route.pane] = nil
        session.updatePanes { $0.withTop { $0 = NotFoundPane(id: route.pane, kind: route.noun, objectID: id) } }
        session.setNeedsDisplay()
    }

    /// A detail fetch answered 404: the pane waiting for it says so.
    func detailMissing(_ link: DeepLink) {
        let (route, id) = Routes.route(link)
        if route.shown(session.topPane) == id { showNotFound(link) }
    }
}

extension LiveDashboard {
    /// `:notifications`: the recent ones, newest first, on top of the current pane.
    func showNotifications() {
        let (rows, links) = NotificationsPane.model(hub, now: now(), named: { self.named($0, fallback: "a task") })
        session.push(NotificationsPane(rows: rows, links: links))
        bindings.markDirty(.detail)
    }

    /// `o`: opens what the toast on screen names (the list when it counts several), else what
    /// the newest notification is about.
    func openLatestNotification() {
        if toasts.current != nil, announced.count > 1 { return showNotifications() }
        if toasts.current != nil, let one = announced.first { return open(one.link) }
        guard let newest = hub.notifications.items.last else {
            return toast(NoticeLine("no notifications yet", level: .muted))
        }
        open(newest.link)
    }
}

extension LiveDashboard {
    /// `c` on Tasks: a picker of the scope's choices on top of the list.
    func pickScope(_ pane: PaneID) {
        guard let scope = pane.spec.scope else { return }
        fetch(scope.queries, force: false)
        session.push(
            PickerPane(owner: pane, title: scope.title, choices: scope.choices(hub), current: scopes[pane] ?? nil))
        bindings.markDirty(.detail)
    }

    /// A pick was made: the picker goes, the list is narrowed (or widened) and fetched.
    func setScope(_ pane: PaneID, _ value: String?) {
        scopes[pane] = .some(value)
        session.updatePanes { stack in if stack.top is PickerPane { stack.pop() } }
        bindings.markDirty(pane)
        refresh(pane, force: false)
        session.setNeedsDisplay()
    }
}
