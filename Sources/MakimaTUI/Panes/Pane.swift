import MakimaKit

/// What a pane asks of the app after handling a key.
public enum PaneResponse {
    /// The key was used; redraw.
    case handled
    /// Not for this pane: the app may use it.
    case ignored
    /// Go to another top-level pane.
    case open(PaneID)
    /// Drill into a new pane on top of this one (q/Esc comes back).
    case push(any Pane)
    /// Something only the data layer can do (open a row, change a filter).
    case request(DashboardRequest)
    /// Put `text` on the clipboard (OSC 52 through the terminal); `what` names it in a toast.
    case copy(text: String, what: String)
}

/// What the user asked for that only the data layer can do. The app queues these; the event
/// loop hands them to `DashboardSession.onRequest`.
public enum DashboardRequest: Hashable, Sendable {
    /// Another pane is now on top (a jump, a pop, the command line).
    case paneShown(PaneID)
    /// `r`: fetch the current pane's data now.
    case refresh
    /// `R`: reconnect the live connection now.
    case reconnect
    /// Enter on a row of a list pane.
    case openRow(pane: PaneID, rowID: String)
    /// `f` on a list pane.
    case nextFilter(PaneID)
    /// Scrolled above the oldest line held of a task's output (a page of older lines), or
    /// `g` (`toStart`: back to the output's first line, within the reading window).
    case loadOlderOutput(taskID: String, toStart: Bool)
    /// A short message for the operator (what was copied, a link that does not exist).
    case toast(String)
    /// `:open N` on a link of the output: show the URL and hand it to `xdg-open` when present.
    case openURL(String)
    /// Enter on something a detail pane names (a contract's task, the task that asked).
    case open(DeepLink)
    /// `c` on Tasks: pick the contract the list is narrowed to.
    case pickScope(PaneID)
    /// A pick was made (nil: all).
    case setScope(PaneID, String?)
    /// `:notifications`: list the recent notifications.
    case showNotifications
    /// `:grep PATTERN`: search the cached output of every task.
    case grep(String)
    /// `:profile NAME`: move the dashboard to that stored profile's mesh.
    case switchProfile(String)
    /// Enter on a `:grep` hit: the task's output, searched for the pattern, at that line.
    case openGrepHit(taskID: String, pattern: String, line: String)
    /// `o`: open what the newest notification is about.
    case openLatestNotification
    /// `n`, `N`, `x`, Enter on NEEDS YOU//.
    case needsYou(NeedsYouRequest)
    /// Signing in: the sign-in pane's steps and the key re-entry after a refused key.
    case signIn(SignInRequest)
}

/// What signing in asks of the data layer. The typed text stays in the sign-in pane's model
/// (the controller reads it there), so no key travels in a request.
public enum SignInRequest: Hashable, Sendable {
    /// Enter: check the server (step 1) or the key (step 2).
    case submit
    /// "Where do I get a key?": show `<server>/settings`, copy it, open it when possible.
    case keyHelp
    /// Esc on the first step: close the pane, nothing changed.
    case close
    /// `K`: enter a new key for the signed-in server.
    case enterKey
}

/// One screen of the dashboard. Panes are thin: each draws from a plain view-model struct
/// that a data layer fills, and turns key actions into state changes or navigation.
public protocol Pane {
    /// This pane's own identity (a drill-down's too): what is on top is known by it.
    var id: PaneID { get }
    /// The top-level pane this one is or belongs to (a drill-down's parent): NAV// highlights
    /// it, and it is polled and refreshed while this pane is shown.
    var section: PaneID { get }
    /// Uppercase header title, e.g. "CONTRACTS".
    var title: String { get }
    /// Key contexts, most specific first; `.global` is added by the app.
    var keyContexts: [KeyContext] { get }
    /// True while the pane takes typed text (a list filter being edited).
    var isEditingText: Bool { get }
    /// Contexts looked up before a key becomes typed text, while `isEditingText` (the sign-in
    /// pane's Ctrl keys); empty for most panes.
    var typingContexts: [KeyContext] { get }
    /// False for drill-down panes (pushed on top of a top-level pane), which are not kept
    /// once popped.
    var isTopLevel: Bool { get }
    /// Shown at the right of the footer (the output view's follow mode and search count).
    var footerStatus: String? { get }
    /// This pane's step in the NAV// breadcrumbs (`CONTRACT Mesh scheduler`).
    var crumb: Crumb { get }
    /// The objects this pane reads from the stores' bounded detail maps: kept there while the
    /// pane is on the stack (`StoreHub.keepDetails`). By default the object it shows
    /// (`shownLink`), if any; empty for panes that read only lists.
    var detailLinks: [DeepLink] { get }
    /// The object this pane shows, when a deep link names it (`Destinations`: the task output
    /// view shows `makima://task/ID`).
    var shownLink: DeepLink? { get }

    /// True while the pane has work it does a step of per frame (a search through a long
    /// output): the event loop keeps drawing until it is done.
    var hasPendingWork: Bool { get }

    /// Draws into `region` of `buffer`. Mutating so scroll positions can follow the viewport.
    mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext)
    mutating func handle(_ action: KeyAction) -> PaneResponse
    /// A text edit while `isEditingText`.
    mutating func edit(_ edit: TextEdit) -> PaneResponse
}

extension Pane {
    public var title: String { id.title }
    public var section: PaneID { id }
    public var hasPendingWork: Bool { false }
    public var keyContexts: [KeyContext] { [] }
    public var isEditingText: Bool { false }
    public var typingContexts: [KeyContext] { [] }
    public var isTopLevel: Bool { true }
    public var footerStatus: String? { nil }
    public var crumb: Crumb { Crumb(title) }
    public var detailLinks: [DeepLink] { shownLink.map { [$0] } ?? [] }
    public var shownLink: DeepLink? { nil }
    public mutating func edit(_ edit: TextEdit) -> PaneResponse { .ignored }

    /// This pane's key bindings (its own contexts, then global), from the standard key map.
    public var bindings: [KeyBinding] { KeyMap.standard.effective(in: keyContexts + [.global]) }
}

/// The header line of a pane: `TITLE//` and its Japanese term with the gloss.
public enum PaneHeader {
    public static func render(
        title: String, term: GlossTerm?, detail: String? = nil,
        into buffer: inout CellBuffer, row: Rect, context: RenderContext
    ) {
        guard !row.isEmpty else { return }
        buffer.fill(row.row(0), style: .plain)
        var line = StyledLine(title.uppercased() + "//", CellStyle(fg: .foregroundMuted, attributes: .bold))
        if let term {
            line.append("  ", .plain)
            line.append(GlossText.line(term, context: context))
        }
        let end = buffer.write(line, x: row.x, y: row.y, maxX: row.maxX)
        if let detail {
            let d = StyledLine(detail, CellStyle(fg: .foregroundMuted)).truncated(
                to: max(0, row.maxX - end - 2), ellipsis: context.glyphs.ellipsis)
            buffer.write(d, x: row.maxX - d.width, y: row.y, maxX: row.maxX)
        }
    }
}
