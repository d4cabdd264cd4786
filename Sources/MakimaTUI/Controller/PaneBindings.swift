import MakimaKit
import Observation

/// The one record of what changed since it was last drawn. Each pane's model is built inside
/// `withObservationTracking`, and so is the frame itself (`.screen`: the chrome around the
/// panes); the first change to anything a build read marks its slot dirty there and then, on
/// the thread that made the change (tracking fires once: the next build re-arms it). A dirty
/// slot that is on screen asks the loop for a frame (`onDirty`); the turn rebuilds the dirty
/// panes on screen just before it draws, so a drained batch of updates costs at most one
/// rebuild and one frame, and an idle dashboard costs nothing.
///
/// Detail panes (a contract, a directive, a transcript, a task's output, `:notifications`, a
/// picker) have one binding between them, `.detail`: only the one on top is built, and
/// another one coming on top is built at once (`detailNeedsBuild`).
@MainActor
package final class PaneBindings {
    /// What a binding keeps current: a top-level pane's model, or the detail pane on top.
    package enum Slot: Hashable {
        case pane(PaneID)
        case detail
        /// Home's parts in the chrome store (its notice, activity, theme row): apart from its
        /// mesh, so their change does not build the mesh (and its ages) again.
        case homeChrome
        /// What the frame itself read (the masthead, banner, toast and footer in the chrome
        /// store): always on screen.
        case screen

        /// True when a change to this slot shows on a screen with `top` on top: a pane's own
        /// slot (the task output view's header measures ages as it draws: its stores mark the
        /// detail slot), the detail slot under a drill-down, Home's chrome under Home.
        func isShown(under top: any Pane) -> Bool {
            switch self {
            case .pane(let id): top.section == id && top.id != .taskOutput
            case .detail: !top.isTopLevel
            case .homeChrome: top is HomePane
            case .screen: true
            }
        }
    }

    private(set) var dirty = Set(PaneID.topLevel.map(Slot.pane) + [.detail, .homeChrome, .screen])
    /// Which detail pane the `.detail` binding was built for last.
    private var detailShown: String?
    /// Told which binding became dirty (the loop: a frame when it is on screen).
    var onDirty: (@MainActor (Slot) -> Void)?

    package init(onDirty: (@MainActor (Slot) -> Void)? = nil) {
        self.onDirty = onDirty
    }

    /// Runs `build` for pane `id` with tracking armed, and clears its dirty mark.
    package func build<T>(_ id: PaneID, _ build: () -> T) -> T { self.build(.pane(id), build) }

    /// Runs `build` for `slot` with tracking armed, and clears its dirty mark.
    package func build<T>(_ slot: Slot, _ build: () -> T) -> T {
        dirty.remove(slot)
        return withObservationTracking(build) { [weak self] in
            // Called on the thread that changed the store, before the change lands: the stores
            // are the UI thread's, so this is the UI thread, inside `StoreHub.apply` or a
            // controller's write. Only a mark is made; the turn's rebuild reads the new value.
            MainActor.assumeIsolated { self?.markDirty(slot) }
        }
    }

    func markDirty(_ id: PaneID) { markDirty(.pane(id)) }

    /// After the loop has ended: the stores still change as the dashboard stops (the task
    /// table handed back), and a mark then would ask a screen that is gone for a frame.
    func stop() { stopped = true }
    private var stopped = false

    func markDirty(_ slot: Slot) {
        guard !stopped else { return }
        dirty.insert(slot)
        onDirty?(slot)
    }

    package func isDirty(_ id: PaneID) -> Bool { isDirty(.pane(id)) }

    package func isDirty(_ slot: Slot) -> Bool { dirty.contains(slot) }

    /// True when the detail on top (named `key`) must be built: its stores changed, or it is
    /// not the one built last. Notes it as the one shown.
    func detailNeedsBuild(_ key: String) -> Bool {
        defer { detailShown = key }
        return dirty.contains(.detail) || detailShown != key
    }
}
