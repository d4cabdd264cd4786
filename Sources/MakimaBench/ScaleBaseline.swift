import Foundation
import MakimaKit
import MakimaTUI

/// The Tasks pane's model as it was built before lists became windows: every task sorted and
/// turned into a row on each store change, from the list held in memory. Kept only so `bench
/// scale` prints the figure it replaced beside the new one, measured in the same run.
@MainActor
enum ScaleBaseline {
    static func tasks(_ items: [MeshTask], _ hub: StoreHub, status: TaskStatus?, now: Date) -> ListPaneViewModel {
        let state = hub.tasks.list(.init(status: status))
        let names = TaskRowNames(hub)
        let ordered = items.enumerated().sorted { a, b in
            let (ta, tb) = (a.element.updatedAt ?? .distantPast, b.element.updatedAt ?? .distantPast)
            return ta == tb ? a.offset < b.offset : ta > tb
        }.map(\.element)
        // The reserve the pane's header gives the columns after the title (40 cells).
        let rows = ordered.map { ListPaneModels.taskRow($0, names: names, reserve: 40, now: now, clock: .zero) }
        return ListPaneModels.model(rows, state, now: now, noun: "task", filter: status?.rawValue ?? "all")
    }
}
