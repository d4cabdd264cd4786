/// What a key does. Panes, the app and the controllers interpret these; the bindings declared
/// beside them (`KeyBinding`, composed by `KeyMap.standard`) say which key means which.
public enum KeyAction: Hashable, Sendable {
    case quit
    /// Pop the pane stack (quits from the first pane).
    case back
    /// Close the help, command line or filter; else like `back`, but never quits.
    case dismiss
    case help
    case commandLine
    /// Number keys: jump to the pane with that number.
    case jumpByNumber
    case gloss
    case redraw
    case filter
    case moveUp, moveDown, top, bottom, pageUp, pageDown
    /// A key a controller answers: what it asks of the data layer, handed to the controller
    /// as it is (`LiveDashboard.handle`). The controller declares the binding with its request
    /// (`r` is `.request(.refresh)`, in `RefreshController.keyBindings`).
    case request(DashboardRequest)
    /// Open the selected row (a task's output).
    case open
    /// The next status filter of a list (contracts: active, completed, archived, all).
    case nextFilter
    // The task output view.
    case toggleWrap, togglePlan, scrollLeft, scrollRight, copyVisible, copyBlock
    /// `:open N` on the command line: link N of the output.
    case openLink(Int)
    /// The next sort order of a list (daemons).
    case nextSort
    /// Start a search of every task's cached output (the command line with `grep `).
    case grepPrompt
    /// Pick what a list is narrowed to (Tasks: a contract).
    case pickScope
    /// The next / previous match of a search (a transcript, the task output, the grep results).
    case searchNext, searchPrevious
    /// Move the focus to the next / previous card (Home).
    case focusNext, focusPrevious
    /// `x`: acknowledge a needs-you item.
    case acknowledge
    // While typing in the command line or a filter.
    case submit, cancel, complete, deleteBackward
    // Signing in (the sign-in pane, while typing).
    /// "Where do I get a key?": show the server's settings page and copy its address.
    case keyHelp
    /// Allow plain http:// to a host that is not loopback, after the warning.
    case confirmInsecure
    /// Empty the field being typed in.
    case clearField
    /// A mouse click on something a pane drew (a list row, a Home card or its row): select it.
    case select(HitTarget)
}
