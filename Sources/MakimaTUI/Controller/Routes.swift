import Foundation
import MakimaKit

/// One kind of destination a `DeepLink` names, described once: the list pane it belongs to,
/// what the not-found screen calls it, how it is opened (the pane pushed, what is fetched),
/// which pane on top shows it, and how that pane is rebuilt from the stores. Enter on a row,
/// a deep link at launch, `o` on a notification and the `:open` of a link all go through
/// `NavigationController.open(_:)`, which reads the entry; what each pane pins in the stores is its
/// `Pane.detailLinks`.
@MainActor
struct Route {
    /// The list pane it belongs to: its row is selected there, and "not found" stands in its place.
    let pane: PaneID
    /// What the not-found screen calls it.
    let noun: String
    /// A deep link lands on `pane` with the row selected, the detail on top (else it opens on
    /// top of what is shown: a task's output view).
    let landsOnList: Bool
    /// Pushes its pane and fetches what it needs.
    let open: @MainActor (LiveDashboard, String, Date) -> Void
    /// The object id `pane` shows when it is this destination's pane.
    let shown: @MainActor (any Pane) -> String?
    /// Rebuilds its pane on top from the stores (run inside the `.detail` binding's tracking).
    let rebuild: @MainActor (LiveDashboard, String, Date) -> Void
}

@MainActor
enum Routes {
    static func route(_ link: DeepLink) -> (route: Route, id: String) {
        switch link {
        case .task(let id): return (task, id)
        case .contract(let id): return (contract, id)
        case .directive(let id): return (directive, id)
        case .listen(let id): return (listen, id)
        }
    }

    /// The destination the pane on top shows, if it is one.
    static func link(shownBy pane: any Pane) -> DeepLink? {
        if let id = task.shown(pane) { return .task(id) }
        if let id = contract.shown(pane) { return .contract(id) }
        if let id = directive.shown(pane) { return .directive(id) }
        if let id = listen.shown(pane) { return .listen(id) }
        return nil
    }

    static let task = Route(
        pane: .tasks, noun: "task", landsOnList: false,
        open: { live, id, _ in live.taskOutput.openTask(id) },
        shown: { ($0 as? TaskOutputPane)?.model.taskID },
        rebuild: { live, _, _ in live.taskOutput.rebuild() })

    static let contract = Route(
        pane: .contracts, noun: "contract", landsOnList: true,
        open: { live, id, now in
            live.session.push(
                ContractDetailPane(model: ContractDetailModel.from(live.hub, id: id, now: now) ?? .loading(id)))
            live.engine?.loadDetail(.contract(id))
            live.refreshing.fetch([ContractDetailModel.tasksQuery(id)], force: true)
        },
        shown: { ($0 as? ContractDetailPane)?.model.id },
        rebuild: { live, id, now in
            if let model = ContractDetailModel.from(live.hub, id: id, now: now) {
                live.navigation.replaceTop(as: ContractDetailPane.self) { $0.update(model) }
            } else if live.hub.missing.links.contains(.contract(id)) {
                live.navigation.showNotFound(.contract(id))
            }
        })

    static let directive = Route(
        pane: .directives, noun: "directive", landsOnList: true,
        open: { live, id, now in
            live.session.push(
                DirectiveDetailPane(
                    model: DirectiveDetailModel.from(live.hub, id: id, now: now)
                        ?? DirectiveDetailModel(id: id, title: "…", status: "loading")))
            live.refreshing.fetch([.directives(pendingOnly: false)], force: true)
        },
        shown: { ($0 as? DirectiveDetailPane)?.model.id },
        rebuild: { live, id, now in
            if let model = DirectiveDetailModel.from(live.hub, id: id, now: now) {
                live.navigation.replaceTop(as: DirectiveDetailPane.self) { $0.update(model) }
            } else if live.navigation.listLacks(live.hub.directives.list, .directive(id)) {
                live.navigation.showNotFound(.directive(id))
            }
        })

    static let listen = Route(
        pane: .listen, noun: "listen session", landsOnList: true,
        open: { live, id, now in
            live.session.push(TranscriptPane(model: .from(live.hub, sessionID: id, now: now)))
            live.engine?.loadDetail(.listen(id))
        },
        shown: { ($0 as? TranscriptPane)?.model.sessionID },
        rebuild: { live, id, now in
            if live.hub.missing.links.contains(.listen(id)) { return live.navigation.showNotFound(.listen(id)) }
            let model = TranscriptViewModel.from(live.hub, sessionID: id, now: now)
            live.navigation.replaceTop(as: TranscriptPane.self) { $0.update(model) }
        })
}
