/// The keys every list pane answers the same way: moving, paging, `/` to filter and Esc to
/// clear it. A pane handles these through here and decides only its own (what Enter opens).
extension ListView {
    /// The LISTS keys, the same in every pane with a list (the list panes, a contract's tasks,
    /// the picker, the notifications, the grep results): the scroll keys and `/` are answered
    /// here (`handleMovement`), Enter by the pane (what a row opens is its own).
    static let keyBindings: [KeyBinding] =
        KeyBinding.scrolling(.list, down: "next row", up: "previous row", top: "first row", bottom: "last row") + [
            KeyBinding([.char("/")], .filter, "filter the list (Esc clears it)", context: .list, footer: "filter"),
            KeyBinding([.enter], .open, "open the selected row (a task's output)", context: .list, footer: "open"),
        ]

    /// The response for a movement or filter key, or nil when the action is the pane's to decide.
    mutating func handleMovement(_ action: KeyAction) -> PaneResponse? {
        switch action {
        case .moveUp: moveUp()
        case .moveDown: moveDown()
        case .top: moveToTop()
        case .bottom: moveToBottom()
        case .pageUp: pageUp()
        case .pageDown: pageDown()
        case .select(.row(let index)): select(index)
        case .filter: beginFilter()
        case .dismiss: return clearFilter() ? .handled : .ignored
        default: return nil
        }
        return .handled
    }

    /// `steps` rows on from the selection, wrapping past either end (a search's `n`/`N`).
    public mutating func moveWrapping(by steps: Int) {
        let count = visibleCount
        guard count > 0 else { return }
        select(((selection + steps) % count + count) % count)
    }
}
