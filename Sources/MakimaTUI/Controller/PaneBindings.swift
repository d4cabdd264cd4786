import MakimaKit
import Observation

/// Keeps each pane's model bound to the `@Observable` stores it reads. A model is built inside
/// `withObservationTracking`; the first change to anything the build read posts a job to the
/// UI bus that marks the pane dirty (tracking fires once: the next build re-arms it). Dirty
/// panes on screen are rebuilt just before a frame is drawn, so a drained batch of updates
/// costs at most one rebuild and one frame, and an idle dashboard costs nothing.
@MainActor
package final class PaneBindings {
    private(set) var dirty = Set(PaneID.allCases)
    private let bus: UIBus
    /// Told which pane became dirty: asks the loop for a frame when that pane is on screen.
    private let needsDisplay: @MainActor (PaneID) -> Void

    package init(bus: UIBus, needsDisplay: @escaping @MainActor (PaneID) -> Void) {
        self.bus = bus
        self.needsDisplay = needsDisplay
    }

    /// Runs `build` for pane `id` with tracking armed, and clears its dirty mark.
    package func build<T>(_ id: PaneID, _ build: () -> T) -> T {
        dirty.remove(id)
        let bus = self.bus
        return withObservationTracking(build) { [weak self] in
            // Called on the thread that changed the store (the UI thread, inside
            // `StoreHub.apply`), before the change lands: the mark goes through the bus.
            bus.post { self?.markDirty(id) }
        }
    }

    func markDirty(_ id: PaneID) {
        dirty.insert(id)
        needsDisplay(id)
    }

    package func isDirty(_ id: PaneID) -> Bool { dirty.contains(id) }
}
