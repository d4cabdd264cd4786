import Foundation
import MakimaKit

extension LiveDashboard {
    /// Does what the needs-you controller decided.
    func perform(_ outcome: NeedsYouController.Outcome) {
        switch outcome {
        case .open(let link): navigation.open(link)
        case .openRow(let pane, let id): navigation.openRow(pane, id)
        case .acknowledged(let item):
            needsYouChanged()
            notificationController.toast(NoticeLine(oneLine("done: \(item.label) · \(item.text)"), level: .ok))
        case .nothing(let why): notificationController.toast(NoticeLine(why, level: .muted))
        }
    }

    /// After a batch or an action: the masthead count and the notify command when the list
    /// changed; acknowledgements made or forgotten go to the cache (a few rows, when the
    /// operator acts or a failed task runs again), so they hold across restarts.
    func needsYouChanged() {
        if hub.needsYou.version != needsYouVersionSeen {
            needsYouVersionSeen = hub.needsYou.version
            session.setNeedsYouCount(hub.needsYou.items.count)
            runNotifyCommand()
        }
        let unsaved = hub.needsYou.takeUnsaved()
        guard !unsaved.isEmpty, let cache else { return }
        do { try cache.setAcknowledged(unsaved) } catch {
            notificationController.toast(NoticeLine("could not keep the acknowledgement: \(error)", level: .warn))
        }
    }

    /// Each item that arose while the dashboard runs (by its time: what was there before it
    /// started was there when they last looked), once: the operator's `notify_command`, and a
    /// notification for the kinds no event announces (a gate read ready, a daemon gone offline
    /// holding tasks; questions and failures come from their events).
    func runNotifyCommand() {
        var arisen: [NeedsYouItem] = []
        for item in hub.needsYou.items where notifiedItems.insert(item.id).inserted {
            if let since = item.since, since >= notifySince { arisen.append(item) }
        }
        // Bounded: past this, only what is listed now is remembered.
        if notifiedItems.count > 4 * NeedsYouRules.keptPerKind { notifiedItems = Set(hub.needsYou.items.map(\.id)) }
        guard !arisen.isEmpty else { return }
        notificationController.announce(arisen.compactMap(\.notification))
        // Nor the hook for what the operator is looking at (the phone need not ring for it).
        runHook(for: arisen.filter { !notificationController.isInView($0.link) })
    }

    /// Through the one child launcher (one at a time, its queue bounded).
    private func runHook(for items: [NeedsYouItem]) {
        guard case .success(let hook?) = setup.notifyCommand else { return }
        guard case .configured(let client, _, _, _) = setup.access else { return }
        let server = client.profile.baseURL.absoluteString
        for item in items {
            guard let command = hook.command(for: item, server: server, launcher: children) else {
                notificationController.toast(NoticeLine("notify_command: \(hook.words[0]) is not found", level: .warn))
                continue
            }
            children.submit(key: "notify:" + item.id, command)
        }
    }
}
