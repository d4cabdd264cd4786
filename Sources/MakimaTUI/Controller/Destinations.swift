import Foundation
import MakimaKit

/// One destination: a pane pushed on top of a top-level pane, described once, keyed by the
/// pane's own id. A destination a deep link names has its fetch-and-keep half in MakimaKit
/// (its `DeepLink.Kind`, declared beside its kind of list: how its object is fetched, where
/// it is kept); this is its pane half, and the list of these entries is the list of the link
/// kinds the dashboard parses and opens (`DeepLink.init?(_:)`). Every way in goes through
/// `NavigationController`, which reads the entry: Enter on a row, a deep link at launch, `o`
/// on a notification and `:open makima://…` (`open(DeepLink)`), `:notifications`, `:grep`,
/// Enter on a grep hit, `c`'s picker (`go(to:)`), onboarding (`show`), not-found (`list`,
/// `noun`) and the rebuild of the pane on top (`rebuild`).
struct Destination: Sendable {
    /// The pane that shows it (`Pane.id`).
    let pane: PaneID
    /// What it is called ("not found" says so).
    let noun: String
    /// The link kind that names it, when a deep link reaches it (`Pane.shownLink`): with it,
    /// links of that kind parse, and its object is fetched and kept through the kind.
    var link: DeepLink.Kind? = nil
    /// The list pane its objects are rows of: a deep link selects the row there, and the
    /// not-found screen belongs to it.
    var list: PaneID? = nil
    /// A deep link lands on `list` with the row selected, the pane on top (else it opens on
    /// top of what is shown: a task's output view).
    var landsOnList = false
    /// Pushes its pane and asks for what it needs, for a subject: the object's id, the
    /// pattern searched, the pane whose scope is picked. Nil: its controller builds the pane
    /// and hands it to `NavigationController.show` (onboarding, not-found).
    var open: (@MainActor @Sendable (any DestinationContext, String, Date) -> Void)? = nil
    /// Rebuilds its pane on top from the stores (inside the `.detail` binding's tracking).
    /// Nil: its model comes from elsewhere (a search's answer, the sign-in steps).
    var rebuild: (@MainActor @Sendable (any DestinationContext, any Pane, Date) -> Void)? = nil
}

/// The destinations, one entry each. An entry defined elsewhere (a test's) is added for the
/// length of a task: `Destinations.$current.withValue(Destinations.current.adding(entry))`.
enum Destinations {
    @TaskLocal static var current = Registry(shipped, key: { $0.pane })

    static subscript(_ pane: PaneID) -> Destination? { current[pane] }

    /// The destination a link of this kind names.
    static func reached(by kind: DeepLink.Kind) -> Destination? { current.all.first { $0.link == kind } }

    /// The kinds of link the destinations are reached by, in their order.
    static var linkKinds: [DeepLink.Kind] { current.all.compactMap(\.link) }

    private static let shipped: [Destination] = [
        task, contract, directive, transcript, daemon, notifications, grep, picker, onboarding, notFound,
    ]

    static let task = Destination(
        pane: .taskOutput, noun: "task", link: .task, list: .tasks,
        open: { live, id, _ in live.taskOutput.openTask(id) },
        rebuild: { live, _, _ in live.taskOutput.rebuild() })

    static let contract = Destination(
        pane: .contract, noun: "contract", link: .contract, list: .contracts, landsOnList: true,
        open: { live, id, now in
            live.navigation.show(
                ContractDetailPane(model: ContractDetailModel.from(live.hub, id: id, now: now) ?? .loading(id)))
            live.engine?.loadDetail(.contract(id))
            live.refreshing.fetch([ContractDetailModel.tasksQuery(id)], force: true)
        },
        rebuild: { live, pane, now in
            guard let id = pane.shownLink?.id else { return }
            if let model = ContractDetailModel.from(live.hub, id: id, now: now) {
                live.navigation.replaceTop(as: ContractDetailPane.self) { $0.update(model) }
            } else if live.hub.missing.links.contains(.contract(id)) {
                live.navigation.showNotFound(.contract(id))
            }
        })

    static let directive = Destination(
        pane: .directive, noun: "directive", link: .directive, list: .directives, landsOnList: true,
        open: { live, id, now in
            live.navigation.show(
                DirectiveDetailPane(
                    model: DirectiveDetailModel.from(live.hub, id: id, now: now)
                        ?? DirectiveDetailModel(id: id, title: "…", status: "loading")))
            live.refreshing.fetch([.directives(pendingOnly: false)], force: true)
        },
        rebuild: { live, pane, now in
            guard let id = pane.shownLink?.id else { return }
            if let model = DirectiveDetailModel.from(live.hub, id: id, now: now) {
                live.navigation.replaceTop(as: DirectiveDetailPane.self) { $0.update(model) }
            } else if live.navigation.listLacks(live.hub.directives.list, .directive(id)) {
                live.navigation.showNotFound(.directive(id))
            }
        })

    static let transcript = Destination(
        pane: .transcript, noun: "listen session", link: .listen, list: .listen, landsOnList: true,
        open: { live, id, now in
            live.navigation.show(TranscriptPane(model: .from(live.hub, sessionID: id, now: now)))
            live.engine?.loadDetail(.listen(id))
        },
        rebuild: { live, pane, now in
            guard let id = pane.shownLink?.id else { return }
            if live.hub.missing.links.contains(.listen(id)) { return live.navigation.showNotFound(.listen(id)) }
            let model = TranscriptViewModel.from(live.hub, sessionID: id, now: now)
            live.navigation.replaceTop(as: TranscriptPane.self) { $0.update(model) }
        })

    /// A daemon has no detail of its own: its link shows its row in the Daemons list (a
    /// notification of a daemon gone offline, `:open makima://daemon/…`).
    static let daemon = Destination(pane: .daemons, noun: "daemon", link: .daemon, list: .daemons, landsOnList: true)

    /// `:notifications`: the recent notifications, built by `rebuild` before its first frame.
    static let notifications = Destination(
        pane: .notifications, noun: "notifications",
        open: { live, _, _ in live.navigation.show(NotificationsPane(rows: [], links: [:])) },
        rebuild: { live, _, now in
            let alerts = live.notificationController
            let (rows, links) = NotificationsPane.model(
                live.hub, now: now, named: { alerts.named($0, fallback: "a task") })
            live.navigation.replaceTop(as: NotificationsPane.self) { $0.update(rows: rows, links: links) }
        })

    /// `:grep PATTERN`: its answer arrives from the search's own queue into the chrome store;
    /// the rows are built from it and the stores' titles and statuses.
    static let grep = Destination(
        pane: .grep, noun: "search", open: { live, pattern, _ in live.taskOutput.showGrep(pattern) },
        rebuild: { live, pane, _ in
            guard let p = pane as? GrepPane, let model = live.taskOutput.grepModel(p.pattern) else { return }
            live.navigation.replaceTop(as: GrepPane.self) { $0.update(model) }
        })

    /// `c`: the choices of a pane's scope (the subject names the pane).
    static let picker = Destination(
        pane: .picker, noun: "choice",
        open: { live, owner, _ in live.navigation.pickScope(PaneID(rawValue: owner)) },
        rebuild: { live, pane, _ in
            guard let scope = PaneRegistry.current[pane.section]?.scope else { return }
            let choices = scope.choices(live.hub)
            live.navigation.replaceTop(as: PickerPane.self) { $0.update(choices: choices) }
        })

    static let onboarding = Destination(pane: .onboarding, noun: "sign-in")

    static let notFound = Destination(pane: .notFound, noun: "not found")
}

extension DeepLink {
    /// The kinds of link the dashboard opens (its destinations').
    public static var openedKinds: [Kind] { Destinations.linkKinds }

    /// A link the dashboard opens: of one of `openedKinds`, with a valid id; anything else is nil.
    public init?(_ raw: String) { self.init(raw, among: Destinations.linkKinds) }
}
