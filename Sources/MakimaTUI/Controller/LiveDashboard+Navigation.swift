import Foundation
import MakimaKit
import Observation

/// Drilling down: detail panes pushed on the stack, their models kept bound to the stores,
/// "not found" when the server has no such object, notifications.
extension LiveDashboard {
    /// Opens what a link names, on top of the current pane, and fetches what it needs.
    func open(_ link: DeepLink) {
        let now = self.now()
        detailOpened[link] = now
        switch link {
        case .task(let id): return openTask(id)
        case .contract(let id):
            session.push(ContractDetailPane(model: ContractDetailModel.from(hub, id: id, now: now) ?? .loading(id)))
            engine?.loadDetail(link)
            fetch([ContractDetailModel.tasksQuery(id)], force: true)
        case .directive(let id):
            session.push(
                DirectiveDetailPane(
                    model: DirectiveDetailModel.from(hub, id: id, now: now)
                        ?? DirectiveDetailModel(id: id, title: "…", status: "loading")))
            fetch([.directives(pendingOnly: false)], force: true)
        case .listen(let id):
            session.push(TranscriptPane(model: .from(hub, sessionID: id, now: now)))
            engine?.loadDetail(link)
        }
        session.cancelTimer(id: "poll")
        detailDirty = true
        session.setNeedsDisplay()
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
        switch top {
        case let p as ContractDetailPane: key = "contract/" + p.model.id
        case let p as DirectiveDetailPane: key = "directive/" + p.model.id
        case let p as TranscriptPane: key = "listen/" + p.model.sessionID
        case is NotificationsPane: key = "notifications"
        case let p as PickerPane: key = "pick/" + p.id.rawValue
        default: return false
        }
        guard detailDirty || detailBuilt != key else { return true }
        detailDirty = false
        detailBuilt = key
        let bus = session.bus
        withObservationTracking {
            rebuild(top)
        } onChange: { [weak self] in
            bus.post {
                self?.detailDirty = true
                self?.session.setNeedsDisplay()
            }
        }
        return true
    }

    private func rebuild(_ top: any Pane) {
        let now = self.now()
        switch top {
        case let p as ContractDetailPane:
            let id = p.model.id
            if let model = ContractDetailModel.from(hub, id: id, now: now) {
                replaceTop(as: ContractDetailPane.self) { $0.update(model) }
            } else if hub.missing.links.contains(.contract(id)) {
                showNotFound(.contract(id))
            }
        case let p as DirectiveDetailPane:
            let id = p.model.id
            if let model = DirectiveDetailModel.from(hub, id: id, now: now) {
                replaceTop(as: DirectiveDetailPane.self) { $0.update(model) }
            } else if listLacks(hub.directives.list, .directive(id)) {
                showNotFound(.directive(id))
            }
        case let p as TranscriptPane:
            let id = p.model.sessionID
            if hub.missing.links.contains(.listen(id)) { return showNotFound(.listen(id)) }
            let model = TranscriptViewModel.from(hub, sessionID: id, now: now)
            replaceTop(as: TranscriptPane.self) { $0.update(model) }
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
    private func listLacks<T>(_ state: ListState<T>, _ link: DeepLink) -> Bool {
        guard let opened = detailOpened[link], let at = state.fetchedAt, !state.isStale else { return false }
        return at >= opened
    }

    private func replaceTop<P: Pane>(as type: P.Type, _ body: (inout P) -> Void) {
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
        let (pane, kind, id): (PaneID, String, String)
        switch link {
        case .task(let i): (pane, kind, id) = (.tasks, "task", i)
        case .contract(let i): (pane, kind, id) = (.contracts, "contract", i)
        case .directive(let i): (pane, kind, id) = (.directives, "directive", i)
        case .listen(let i): (pane, kind, id) = (.listen, "listen session", i)
        }
        if case .task = link { output = nil }
        pendingSelection[pane] = nil
        session.updatePanes { $0.withTop { $0 = NotFoundPane(id: pane, kind: kind, objectID: id) } }
        session.setNeedsDisplay()
    }

    /// A detail fetch answered 404: the pane waiting for it says so.
    func detailMissing(_ link: DeepLink) {
        let top = session.topPane
        let waiting: Bool
        switch link {
        case .task(let id): waiting = (top as? TaskOutputPane)?.model.taskID == id
        case .contract(let id): waiting = (top as? ContractDetailPane)?.model.id == id
        case .listen(let id): waiting = (top as? TranscriptPane)?.model.sessionID == id
        case .directive(let id): waiting = (top as? DirectiveDetailPane)?.model.id == id
        }
        if waiting { showNotFound(link) }
    }
}

extension LiveDashboard {
    /// `:notifications`: the recent ones, newest first, on top of the current pane.
    func showNotifications() {
        let (rows, links) = NotificationsPane.model(hub, now: now(), named: { self.named($0, fallback: "a task") })
        session.push(NotificationsPane(rows: rows, links: links))
        detailDirty = true
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
        detailDirty = true
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
