import Foundation
import MakimaKit
import Observation

/// Navigation, one concern of the dashboard: which pane is shown, drilling down (panes pushed
/// on the stack by their `Destinations` entry, kept bound to the stores, "not found" when
/// the server has no such object), each list pane's filter and scope, and the row waiting to
/// be selected. `LiveDashboard` holds one and forwards requests to it.
///
/// It is given the parts it uses: the session's stack and timers, the stores, the bindings,
/// list fetches (`ListRefreshing`), the runner of `Destinations` entries (`DestinationRunning`)
/// and closures for a Settings row's action and for the task output view going off screen.
///
/// Observable: a pane's model reads its filter and scope here, so changing them rebuilds it.
@MainActor @Observable
final class NavigationController {
    /// Each pane's current filter (absent: the first of its cycle).
    var filters: [PaneID: String?] = [:]
    /// Each pane's scope (Tasks: a contract id; absent: all).
    var scopes: [PaneID: String?] = [:]
    /// When each detail was opened: a list fetched after this that lacks it means "not found".
    @ObservationIgnored var detailOpened: [DeepLink: Date] = [:]
    /// A row to select in a list pane once its list holds it (a deep link, a Home daemon).
    @ObservationIgnored var pendingSelection: [PaneID: String] = [:]

    @ObservationIgnored private unowned let session: any PaneStackEditing & TimerScheduling
    @ObservationIgnored private let hub: StoreHub
    /// Marks a pane on screen for a rebuild, and builds the detail on top (`PaneBindings`).
    @ObservationIgnored private let bindings: PaneBindings
    @ObservationIgnored private unowned let lists: any ListRefreshing
    @ObservationIgnored private unowned let destinations: any DestinationRunning
    /// Does what a Settings row does (`SettingsController.perform`).
    @ObservationIgnored private let perform: (SettingsAction) -> Void
    /// The task output view is off screen: its converted lines are let go (`TaskOutputController.view`).
    @ObservationIgnored private let closeTaskOutput: () -> Void
    @ObservationIgnored private let now: () -> Date

    init(
        session: any PaneStackEditing & TimerScheduling, hub: StoreHub, bindings: PaneBindings,
        lists: any ListRefreshing, destinations: any DestinationRunning,
        perform: @escaping (SettingsAction) -> Void, closeTaskOutput: @escaping () -> Void,
        now: @escaping () -> Date
    ) {
        self.session = session
        self.hub = hub
        self.bindings = bindings
        self.lists = lists
        self.destinations = destinations
        self.perform = perform
        self.closeTaskOutput = closeTaskOutput
        self.now = now
    }

    /// The pane's current filter value.
    func filter(_ pane: PaneID) -> String? { filters[pane] ?? pane.spec.filterCycle.first ?? nil }

    /// `f`: the pane's next filter, fetched.
    func nextFilter(_ pane: PaneID) {
        guard let next = PaneRegistry.nextFilter(filter(pane), of: pane) else { return }
        filters[pane] = .some(next)
        lists.refresh(pane, force: false)
    }

    func shown(_ pane: PaneID) {
        if session.topPane.id != .taskOutput { closeTaskOutput() }
        session.cancelTimer(id: "poll")
        // The clock: the ages it showed when it was last on screen have moved on since.
        bindings.markDirty(pane)
        lists.poll(pane)
    }

    func openRow(_ pane: PaneID, _ rowID: String) {
        if let action = pane.spec.rowAction(rowID) { return perform(action) }
        if let link = pane.spec.openRow(rowID) { return open(link) }
        showRow(rowID, in: pane)
    }

    /// Nothing to drill into (a daemon from Home's card or its link): the row in its pane.
    private func showRow(_ rowID: String, in pane: PaneID) {
        guard session.topPane.section != pane else { return select(rowID, in: pane) }
        session.updatePanes { $0.jump(to: pane) }
        shown(pane)
        select(rowID, in: pane)
    }

    /// A deep link opens exactly its target: a task's output on Home; a directive, contract
    /// or listen session in its pane's list with its row selected and its detail on top.
    func openDeepLink(_ link: DeepLink) {
        guard let destination = Destinations.reached(by: link.kind) else { return }
        if destination.landsOnList, let list = destination.list {
            select(link.id, in: list)
            session.updatePanes { $0.jump(to: list) }
            shown(list)
        }
        open(link)
    }

    /// Opens what a link names, on top of the current pane, and fetches what it needs (its
    /// `Destinations` entry says how).
    func open(_ link: DeepLink) {
        guard let destination = Destinations.reached(by: link.kind) else { return }
        if destination.open == nil, let list = destination.list { return showRow(link.id, in: list) }
        detailOpened[link] = now()
        go(to: destination.pane, subject: link.id)
    }

    /// Opens a destination on top of the current pane, for its subject (the object's id, the
    /// pattern searched, the pane whose scope is picked): its entry's `open`.
    func go(to pane: PaneID, subject: String = "") {
        guard let destination = Destinations[pane], destination.open != nil else { return }
        destinations.open(destination, subject: subject, at: now())
        // A detail on top is not polled; it is built (bound to the stores) before the next
        // frame, being another than the one built last (`PaneBindings.detailNeedsBuild`).
        session.cancelTimer(id: "poll")
    }

    /// Pushes a destination's pane: the one way a pane goes on top of a top-level one. A pane
    /// with no `Destinations` entry is a programming error.
    func show(_ pane: any Pane) {
        precondition(Destinations[pane.id] != nil, "pane \(pane.id) has no entry in Destinations")
        session.push(pane)
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
        guard let destination = Destinations[top.id], destination.rebuild != nil else { return false }
        // Which one is shown: the object a link names, else the pane and what it belongs to.
        let key = top.shownLink?.description ?? "\(top.id)/\(top.section)"
        guard bindings.detailNeedsBuild(key) else { return true }
        bindings.build(.detail) { destinations.rebuild(destination, top, at: now()) }
        return true
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
        guard let destination = Destinations.reached(by: link.kind), let list = destination.list else { return }
        if session.topPane.id == .taskOutput { closeTaskOutput() }
        pendingSelection[list] = nil
        let notFound = NotFoundPane(section: list, kind: destination.noun, objectID: link.id)
        session.updatePanes { $0.withTop { $0 = notFound } }
    }

    /// A detail fetch answered 404: the pane waiting for it says so.
    func detailMissing(_ link: DeepLink) {
        if session.topPane.shownLink == link { showNotFound(link) }
    }

    /// `c` on Tasks: a picker of the scope's choices on top of the list (the `picker` entry).
    func pickScope(_ pane: PaneID) {
        guard let scope = PaneRegistry.current[pane]?.scope else { return }
        lists.fetch(scope.queries, force: false)
        show(PickerPane(owner: pane, title: scope.title, choices: scope.choices(hub), current: scopes[pane] ?? nil))
    }

    /// A pick was made: the picker goes, the list is narrowed (or widened) and fetched.
    func setScope(_ pane: PaneID, _ value: String?) {
        scopes[pane] = .some(value)
        session.updatePanes { stack in if stack.top.id == .picker { stack.pop() } }
        lists.refresh(pane, force: false)
    }
}

extension NavigationController {
    /// The keys this controller answers (`KeyMap.standard` composes them): a list's status
    /// filter and its scope.
    nonisolated static let keyBindings: [KeyBinding] = [
        KeyBinding(
            [.char("f")], .nextFilter, "next status filter (contracts, tasks)", context: .listOrder, footer: "status"),
        KeyBinding(
            [.char("c")], .pickScope, "show one contract's tasks (pick from a list; “all” clears)", context: .taskList,
            footer: "contract"),
    ]
}
