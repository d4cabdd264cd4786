import Foundation
import MakimaKit

/// What a pane's model is built from. `hub` is read inside observation tracking: whatever
/// store property a build reads marks the pane for a rebuild when it changes.
@MainActor
struct PaneSource {
    let hub: StoreHub
    /// The pane's current filter (a raw status value; nil is "all").
    let filter: String?
    let now: Date
    /// Settings shows facts about the running engine that live outside the stores.
    let settings: () -> SettingsFacts
}

/// A pane's model, in the form its pane takes.
enum PaneContent {
    case home(HomeMeshModel)
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
    /// The lists the pane shows, for its current filter.
    var queries: @Sendable (String?) -> [ListQuery] = { _ in [] }
    /// While on screen, its lists are fetched again this often (seconds).
    var pollSeconds: Double?
    /// True when the model shows engine facts that are not in the stores (rebuilt after every batch).
    var readsEngine = false
    /// The pane's model from the stores.
    let build: @MainActor @Sendable (PaneSource) -> PaneContent
    /// The task Enter on a row opens, if any.
    var openTask: @MainActor @Sendable (StoreHub, String) -> String? = { _, _ in nil }
    /// What Enter on a row does besides opening a task (Settings' actions), if anything.
    var rowAction: @Sendable (String) -> SettingsAction? = { _ in nil }
    /// Makes the pane (before any data arrives).
    let make: @Sendable () -> any Pane
}

extension PaneID {
    /// This pane's description in `PaneRegistry`.
    var spec: PaneSpec { PaneRegistry.spec(self) }
}
