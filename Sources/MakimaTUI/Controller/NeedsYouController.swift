import Foundation
import MakimaKit

/// What `n`/`N`, `x` and Enter on NEEDS YOU// do with the needs-you list (`NeedsYouStore`):
/// which item is current, which comes next, what opening it means. It decides; the dashboard
/// does (`LiveDashboard.perform`), so the decisions are tested without a screen.
@MainActor
final class NeedsYouController {
    enum Outcome: Equatable {
        /// Open what names the item (a task's output at its end: the failing line, the gate
        /// card, the question; a directive).
        case open(DeepLink)
        /// A daemon: the Daemons pane, on its row.
        case openRow(PaneID, String)
        case acknowledged(NeedsYouItem)
        /// Nothing waits (or the item named is gone): said in a toast.
        case nothing(String)
    }

    let store: NeedsYouStore
    /// The item `n`/`N` last opened: `x` acknowledges it, the next `n` goes on from it.
    private(set) var current: String?

    init(store: NeedsYouStore) { self.store = store }

    func handle(_ request: NeedsYouRequest) -> Outcome {
        let items = store.items
        switch request {
        case .next, .previous:
            guard !items.isEmpty else { return .nothing("nothing needs you") }
            let at = current.flatMap { id in items.firstIndex { $0.id == id } }
            let step = request == .next ? 1 : items.count - 1
            // From nothing (or an item gone), `n` starts at the oldest and `N` at the newest.
            let index = at.map { ($0 + step) % items.count } ?? (request == .next ? 0 : items.count - 1)
            return open(items[index])
        case .open(let id):
            guard let item = items.first(where: { $0.id == id }) else { return .nothing("that item left the list") }
            return open(item)
        case .acknowledge(let id):
            guard let id = id ?? current, let item = items.first(where: { $0.id == id }) else {
                return .nothing(items.isEmpty ? "nothing needs you" : "x: open an item first (n), or select it on Home")
            }
            store.acknowledge(item.id)
            if current == item.id { current = nil }
            return .acknowledged(item)
        }
    }

    private func open(_ item: NeedsYouItem) -> Outcome {
        current = item.id
        switch item.kind {
        case .offline: return .openRow(.daemons, item.subjectID)
        case .failed, .gate: return .open(item.link ?? DeepLink(.task, item.subjectID))
        case .question: return .open(item.link ?? DeepLink(.task, item.taskID ?? item.subjectID))
        }
    }

    /// The keys, declared where they are handled.
    nonisolated static let keyBindings: [KeyBinding] = [
        KeyBinding(
            [.char("n")], .request(.needsYou(.next)), "open the next thing that needs you (oldest first)",
            context: .global, footer: "next needs-you"),
        KeyBinding(
            [.char("N")], .request(.needsYou(.previous)), "open the previous thing that needs you", context: .global),
        KeyBinding(
            [.char("x")], .acknowledge,
            "done: the needs-you item opened or selected leaves the list",
            context: .global),
    ]
}

/// What the operator asks of the needs-you list.
public enum NeedsYouRequest: Hashable, Sendable {
    case next
    case previous
    /// Enter on a NEEDS YOU// line.
    case open(String)
    /// `x`: that item, or (nil) the one opened last.
    case acknowledge(String?)
}
