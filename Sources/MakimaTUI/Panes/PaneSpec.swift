import Foundation
import MakimaKit

/// What a pane's model is built from. `hub` is read inside observation tracking: whatever
/// store property a build reads marks the pane for a rebuild when it changes.
@MainActor
struct PaneSource {
    let hub: StoreHub
    /// The pane's current filter (a raw status value; nil is "all").
    let filter: String?
    /// The pane's current scope (a contract id for Tasks; nil is "all").
    var scope: String? = nil
    let now: Date
    /// Settings shows facts about the running engine that live outside the stores.
    let settings: () -> SettingsFacts
}

/// A pane's model, in the form its pane takes.
enum PaneContent {
    /// Home's live cards, and its SYSTEM// card's Network and Server clock rows.
    case home(HomeMeshModel, network: StatusRow, serverClock: StatusRow?)
    case list(ListPaneViewModel)
}

/// A top-level pane, described once: its id and chrome (titles, gloss term, number from its
/// place in `PaneID`), the lists it needs, the filters `f` steps through, how its model is
/// built from the stores, and what Enter on a row opens.
struct PaneSpec: Sendable {
    let id: PaneID
    /// Label used when the NAV// strip is too narrow for full titles.
    let shortTitle: String
    /// The Japanese term shown beside the pane's header, if it has one.
    let term: GlossTerm?
    /// The values `f` steps through, the first being the initial one; empty when the pane has none.
    var filterCycle: [String?] = []
    /// A second narrowing, picked from a list (Tasks: one contract), if the pane has one.
    var scope: PaneScope?
    /// The lists the pane shows, for its current filter and scope.
    var queries: @Sendable (String?, String?) -> [ListQuery] = { _, _ in [] }
    /// While on screen, its lists are fetched again this often (seconds).
    var pollSeconds: Double?
    /// The pane's model from the stores.
    let build: @MainActor @Sendable (PaneSource) -> PaneContent
    /// What Enter on a row opens (nil: nothing to drill into; a link to the row from
    /// elsewhere, such as a Home card, selects the row in this pane).
    var openRow: @Sendable (String) -> DeepLink? = { _ in nil }
    /// What Enter on a row does instead (Settings' actions), if anything.
    var rowAction: @Sendable (String) -> SettingsAction? = { _ in nil }
    /// Makes the pane (before any data arrives).
    let make: @Sendable () -> any Pane
}

/// What a pane's scope is picked from: the choices (id and label) from the stores, the lists
/// to fetch for them, and what the picker is called.
struct PaneScope: Sendable {
    let title: String
    let queries: [ListQuery]
    let choices: @MainActor @Sendable (StoreHub) -> [(id: String, label: String)]

    /// One contract: every contract the stores hold, by name.
    static let contract = PaneScope(title: "CONTRACT", queries: [.contracts(status: nil)]) { hub in
        var seen = Set<String>()
        var out: [(id: String, label: String)] = []
        let lists = [hub.contracts.list(nil)] + hub.contracts.lists.values.map { $0 }
        for list in lists {
            for c in list.items where seen.insert(c.id).inserted {
                out.append((c.id, oneLine(c.name) + "  " + c.status.rawValue.uppercased()))
            }
        }
        return out
    }
}

extension PaneID {
    /// This pane's description in `PaneRegistry`.
    var spec: PaneSpec { PaneRegistry.spec(self) }
}
