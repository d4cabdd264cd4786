/// What a key does. Panes and the app interpret these; `KeyMap` decides which key means which.
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
    /// Fetch the current pane's data now (skipping the error backoff).
    case refresh
    /// Reconnect the live connection now instead of waiting for the backoff.
    case reconnect
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
    /// Open what the newest notification is about.
    case openNotification
    /// Start a search of every task's cached output (the command line with `grep `).
    case grepPrompt
    /// Pick what a list is narrowed to (Tasks: a contract).
    case pickScope
    /// The next / previous match of a search (a transcript, the task output, the grep results).
    case searchNext, searchPrevious
    /// Move the focus to the next / previous card (Home).
    case focusNext, focusPrevious
    /// `n` / `N` outside a search: open the next / previous item that needs the operator.
    case nextNeedsYou, previousNeedsYou
    /// `x`: acknowledge a needs-you item.
    case acknowledge
    // While typing in the command line or a filter.
    case submit, cancel, complete, deleteBackward
    /// Enter a new API key (after the server refused the key in use).
    case enterKey
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

/// Where a binding applies. Panes list their contexts most specific first; `global` is last.
/// A struct (not an enum) so later panes can add contexts without touching this file.
public struct KeyContext: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public let title: String

    public init(rawValue: String) { self.init(rawValue, title: rawValue.uppercased()) }
    public init(_ rawValue: String, title: String) {
        self.rawValue = rawValue
        self.title = title
    }

    public static let global = KeyContext("global", title: "GLOBAL")
    public static let list = KeyContext("list", title: "LISTS")
    public static let textInput = KeyContext("text", title: "TYPING (COMMAND LINE, FILTER)")
    /// The `:` command line only: what completes a pane name (a filter has nothing to complete).
    public static let commandLine = KeyContext("command", title: "COMMAND LINE")
    public static let output = KeyContext("output", title: "TASK OUTPUT")
    /// While a search is active (the task output's, once a query is kept; the `:grep` results):
    /// ahead of the pane's own keys, so `n`/`N` step through its hits rather than the needs-you list.
    public static let search = KeyContext("search", title: "SEARCH (TASK OUTPUT WITH A QUERY, GREP RESULTS)")
    public static let home = KeyContext("home", title: "HOME")
    public static let taskList = KeyContext("tasks", title: "TASKS")
    /// The status filter and sort order of the top-level list panes (not of lists inside a
    /// detail pane).
    public static let listOrder = KeyContext("order", title: "LIST PANES")
    public static let transcript = KeyContext("transcript", title: "LISTEN TRANSCRIPT")
    /// A detail pane that scrolls and names one thing Enter opens (a directive's task).
    public static let detail = KeyContext("detail", title: "DETAIL (DIRECTIVE)")
    public static let signIn = KeyContext("signin", title: "SIGN IN (SERVER, API KEY)")
    /// What the mouse does; every entry has a key that does the same (no key triggers these).
    public static let mouse = KeyContext("mouse", title: "MOUSE (EACH HAS ITS KEY)")
}

public struct KeyBinding: Hashable, Sendable {
    public var keys: [Key]
    public var action: KeyAction
    public var description: String
    public var context: KeyContext
    public var inFooter: Bool
    /// How the keys are written; defaults to the key labels joined by "/".
    public var label: String
    /// The short form of `description` the footer shows.
    public var hint: String

    public init(
        _ keys: [Key], _ action: KeyAction, _ description: String, context: KeyContext,
        footer: String? = nil, label: String? = nil
    ) {
        self.keys = keys
        self.action = action
        self.description = description
        self.context = context
        inFooter = footer != nil
        hint = footer ?? description
        self.label = label ?? keys.map(\.label).joined(separator: "/")
    }
}

/// The one table of key bindings, composed from the parts that handle them (`standard`). It
/// drives key dispatch, the footer hints, the `?` help
/// overlay and docs/keys.md, so they cannot disagree.
public struct KeyMap: Sendable {
    public var bindings: [KeyBinding] {
        didSet { firstBinding = Self.index(bindings) }
    }
    /// Where each key's first binding in each context is: a key is looked up once per context
    /// (a flood of keys into a field would otherwise scan every binding for every key).
    private var firstBinding: [ContextKey: Int]

    private struct ContextKey: Hashable {
        var context: KeyContext
        var key: Key
    }

    public init(bindings: [KeyBinding]) {
        self.bindings = bindings
        firstBinding = Self.index(bindings)
    }

    private static func index(_ bindings: [KeyBinding]) -> [ContextKey: Int] {
        var index: [ContextKey: Int] = [:]
        for (i, binding) in bindings.enumerated() {
            for key in binding.keys where index[ContextKey(context: binding.context, key: key)] == nil {
                index[ContextKey(context: binding.context, key: key)] = i
            }
        }
        return index
    }

    /// The action for `key`, looking through `contexts` in order (most specific first).
    public func action(for key: Key, in contexts: [KeyContext]) -> KeyAction? {
        binding(for: key, in: contexts)?.action
    }

    public func binding(for key: Key, in contexts: [KeyContext]) -> KeyBinding? {
        for context in contexts {
            if let i = firstBinding[ContextKey(context: context, key: key)] { return bindings[i] }
        }
        return nil
    }

    /// Bindings of `contexts` (in that order) that no earlier context shadows completely.
    public func effective(in contexts: [KeyContext]) -> [KeyBinding] {
        var out: [KeyBinding] = []
        for context in contexts {
            for b in bindings where b.context == context {
                // A mouse entry has no key to shadow.
                let live = b.keys.isEmpty || b.keys.contains { binding(for: $0, in: contexts) == b }
                if live { out.append(b) }
            }
        }
        return out
    }

    /// Hints for the footer line: help first, then the most specific contexts' hints.
    public func footerHints(in contexts: [KeyContext]) -> [KeyBinding] {
        let hints = effective(in: contexts).filter(\.inFooter)
        return hints.filter { $0.action == .help } + hints.filter { $0.action != .help }
    }

    /// The help overlay's sections: for each mode (a list of contexts looked up together, such
    /// as a pane's contexts plus global, or typing), one section per context with the bindings
    /// that are live in that mode.
    public func helpSections(modes: [[KeyContext]]) -> [(context: KeyContext, bindings: [KeyBinding])] {
        modes.flatMap { contexts in
            let live = effective(in: contexts)
            return contexts.compactMap { c -> (context: KeyContext, bindings: [KeyBinding])? in
                let bs = live.filter { $0.context == c }
                return bs.isEmpty ? nil : (c, bs)
            }
        }
    }

    /// Every context that has bindings, in the order they first appear.
    public var contexts: [KeyContext] {
        var seen: [KeyContext] = []
        for b in bindings where !seen.contains(b.context) { seen.append(b.context) }
        return seen
    }

    /// docs/keys.md, generated from this table.
    public func markdown() -> String {
        var s = "# Keys\n\n"
        s += "Generated from `KeyMap.standard` (`makima-tui --print-keymap`); a test keeps this file in step.\n"
        s += "A pane looks a key up in its own contexts first (for example LISTS), then GLOBAL, so `g`\n"
        s += "moves to the top of a list but reveals the English glosses elsewhere.\n"
        for c in contexts {
            s += "\n## \(c.title)\n\n| Keys | Action |\n|---|---|\n"
            for b in bindings where b.context == c {
                s += "| `\(b.label.replacingOccurrences(of: "|", with: "\\|"))` | \(b.description) |\n"
            }
        }
        s +=
            "\n## COMMAND LINE\n\n`:` then a pane name (a unique prefix is enough, Tab completes it) or its number, then Enter;\n"
        s += "`:notifications` lists the recent notifications (Enter opens one), `:grep PATTERN` searches the\n"
        s += "cached output, titles and plans of every task (`n`/`N` step its hits; Enter on one opens the task\n"
        s += "at that line, then `n`/`N` as in the output's own search), `:profile NAME` moves the dashboard\n"
        s += "to another stored profile's mesh in place (Tab completes the names; `makima-tui profiles` lists them),\n"
        s += "`:open makima://KIND/ID` opens what a deep link names (as `o` on a notification does), `:q` quits:\n"
        s += CommandLineState.commands.map { "`" + $0 + "`" }.joined(separator: ", ") + ".\n"
        s += "\nIn the task output, `:open N` (or a click on the link) shows link N's URL and opens it with\n"
        s += "`xdg-open` when installed. Only `http` and `https` links are opened: any other scheme (`mailto:`,\n"
        s += "`file:`, `javascript:`, a custom one) is refused with a word naming it. xdg-open runs without a\n"
        s += "shell, with a clean environment (the locale, PATH, HOME, the display and desktop session; never\n"
        s += "a `MAKIMA_` variable) and no descriptor of the dashboard's, one at a time with the desktop\n"
        s += "notifications: the same link again while it opens is not opened twice, past 16 waiting more\n"
        s += "are dropped, and it is ended after 10 s (docs/security.md, \"Children and links\").\n"
        s += "\nIn the help overlay, j/k and PgUp/PgDn scroll; `?`, Esc or `q` close it.\n"
        s += "\n## MOUSE AND PASTE\n\n"
        s += "The dashboard asks the terminal for mouse reports (SGR, buttons and the wheel; in tmux with\n"
        s += "`set -g mouse on`). `--no-mouse`, or Settings › mouse (saved in the config), turns them off so the\n"
        s += "terminal's (or tmux's) own selection works; with reporting on, Shift-drag still selects text in\n"
        s += "most terminals (xterm, VTE, kitty, WezTerm, Alacritty; in tmux, Shift with the mouse option on).\n"
        s += "A paste (bracketed paste) is text for the field being typed in, cleaned as server text is and\n"
        s += "without newlines, never keys; outside a field it is ignored. A field holds at most 4,096 bytes.\n"
        s += "Sign-out, key rotation and quitting (Q, `:q`, the quit prompt's `y`) need a key typed on its\n"
        s += "own: alone in what the terminal delivered and not within 0.3 s of a paste, a burst of keys or\n"
        s += "a click; keys that came with those do not confirm or quit, and a toast says so.\n"
        return s
    }

    /// The dashboard's keys: the app's and the panes' (`appAndPaneKeys`) and each
    /// controller's own, declared where they are handled (`keyBindings` of `Controller/`'s
    /// controllers). Grouped by context in `contextOrder`; within one, in the order listed here.
    public static let standard = KeyMap(
        composing: [
            NavigationController.keyBindings, appAndPaneKeys, RefreshController.keyBindings,
            SignInController.keyBindings, NotificationController.keyBindings, TaskOutputController.keyBindings,
            NeedsYouController.keyBindings,
        ], contextOrder: contextOrder)

    /// The order of the sections of the help and docs/keys.md.
    static let contextOrder: [KeyContext] = [
        .global, .list, .listOrder, .output, .search, .taskList, .home, .transcript, .detail, .textInput, .commandLine,
        .signIn, .mouse,
    ]

    /// Composes the bindings `parts` declare: grouped by context in `contextOrder` (a context
    /// it leaves out comes after, in the order first declared), each context's bindings in
    /// the order of the parts.
    public init(composing parts: [[KeyBinding]], contextOrder: [KeyContext]) {
        var order = contextOrder
        for b in parts.joined() where !order.contains(b.context) { order.append(b.context) }
        self.init(bindings: order.flatMap { c in parts.joined().filter { $0.context == c } })
    }

    /// The keys the app (`AppState`) and the panes answer themselves.
    static let appAndPaneKeys: [KeyBinding] = [
        KeyBinding([.char("?")], .help, "help: every key for this pane", context: .global, footer: "help"),
        KeyBinding(
            [.char(":")], .commandLine, "command line: jump to a pane by name (Tab completes)", context: .global,
            footer: "command", label: ":"),
        KeyBinding(
            // Every digit key a pane may have: one past the panes there are does nothing.
            (1...9).map { .char(Character(String($0))) }, .jumpByNumber,
            "jump to the pane with that number in NAV//", context: .global, footer: "panes",
            label: "1–\(PaneID.numberKeys)"),
        KeyBinding(
            [.char("g")], .gloss, "glosses: hold to show the English of Japanese terms, tap to toggle",
            context: .global, footer: "gloss"),
        KeyBinding(
            [.char("q")], .back, "back one level; on the first pane asks “Quit? y/n”",
            context: .global, footer: "back"),
        KeyBinding(
            [.escape], .dismiss, "close help, prompt, search or filter; else back", context: .global),
        KeyBinding([.char("Q"), .ctrl("c")], .quit, "quit at once (so does :q)", context: .global, footer: "quit"),
        KeyBinding([.ctrl("l")], .redraw, "redraw the screen", context: .global),

        KeyBinding([.char("j"), .down], .moveDown, "next row", context: .list, footer: "down"),
        KeyBinding([.char("k"), .up], .moveUp, "previous row", context: .list, footer: "up"),
        KeyBinding([.char("g"), .home], .top, "first row", context: .list),
        KeyBinding([.char("G"), .end], .bottom, "last row", context: .list),
        KeyBinding([.pageUp, .ctrl("b")], .pageUp, "page up", context: .list),
        KeyBinding([.pageDown, .ctrl("f")], .pageDown, "page down", context: .list),
        KeyBinding([.char("/")], .filter, "filter the list (Esc clears it)", context: .list, footer: "filter"),
        KeyBinding([.enter], .open, "open the selected row (a task's output)", context: .list, footer: "open"),
        KeyBinding([.char("s")], .nextSort, "next sort order (daemons)", context: .listOrder, footer: "sort"),

        KeyBinding([.char("j"), .down], .moveDown, "scroll down a line", context: .output, footer: "down"),
        KeyBinding(
            [.char("k"), .up], .moveUp,
            "scroll up a line (stops following; above the oldest line held, fetches older output)", context: .output,
            footer: "up"),
        KeyBinding([.char("g"), .home], .top, "the task's first line (older output is fetched)", context: .output),
        KeyBinding(
            [.char("G"), .char("F"), .end], .bottom, "last line, and follow new output", context: .output,
            footer: "follow"),
        KeyBinding([.pageUp, .ctrl("b")], .pageUp, "page up", context: .output),
        KeyBinding([.pageDown, .ctrl("f")], .pageDown, "page down", context: .output),
        KeyBinding(
            [.char("/")], .filter, "search the output (Enter keeps the matches for n/N, Esc clears them)",
            context: .output, footer: "search"),
        KeyBinding([.left], .scrollLeft, "scroll code and tables left", context: .output),
        KeyBinding([.right], .scrollRight, "scroll code and tables right", context: .output),
        KeyBinding([.char("w")], .toggleWrap, "wrap prose on/off (off: prose scrolls sideways too)", context: .output),
        KeyBinding([.char("p")], .togglePlan, "show/hide the task's plan", context: .output, footer: "plan"),
        KeyBinding([.char("y")], .copyVisible, "copy the output in view (OSC 52)", context: .output, footer: "copy"),
        KeyBinding([.char("Y")], .copyBlock, "copy the code block in view (OSC 52)", context: .output),
        KeyBinding(
            [.escape], .dismiss, "clear the search; else back", context: .output),

        KeyBinding(
            [.char("n")], .searchNext, "next hit, its line marked, 2 lines kept in view around it",
            context: .search, footer: "next hit"),
        KeyBinding([.char("N")], .searchPrevious, "previous hit (both wrap around)", context: .search),

        KeyBinding([.tab, .char("l")], .focusNext, "focus the next card", context: .home, footer: "next card"),
        KeyBinding([.backTab, .char("h")], .focusPrevious, "focus the previous card", context: .home),
        KeyBinding([.char("j"), .down], .moveDown, "next row of the focused card", context: .home, footer: "row"),
        KeyBinding([.char("k"), .up], .moveUp, "previous row (above the first: none)", context: .home),
        KeyBinding(
            [.enter], .open, "open the selected row (MESHES//: switch to that mesh), else the card's pane",
            context: .home,
            footer: "open"),

        KeyBinding([.char("j"), .down], .moveDown, "scroll down", context: .transcript, footer: "down"),
        KeyBinding([.char("k"), .up], .moveUp, "scroll up", context: .transcript, footer: "up"),
        KeyBinding([.char("g"), .home], .top, "first line", context: .transcript),
        KeyBinding([.char("G"), .end], .bottom, "last line", context: .transcript),
        KeyBinding([.pageUp, .ctrl("b")], .pageUp, "page up", context: .transcript),
        KeyBinding([.pageDown, .ctrl("f")], .pageDown, "page down", context: .transcript),
        KeyBinding(
            [.char("/")], .filter, "search (Enter: first match from the top of the view; Esc clears)",
            context: .transcript, footer: "search"),
        KeyBinding([.char("n")], .searchNext, "next match", context: .transcript, footer: "next"),
        KeyBinding([.char("N")], .searchPrevious, "previous match", context: .transcript, footer: "prev"),

        KeyBinding([.char("j"), .down], .moveDown, "scroll down", context: .detail, footer: "down"),
        KeyBinding([.char("k"), .up], .moveUp, "scroll up", context: .detail, footer: "up"),
        KeyBinding([.char("g"), .home], .top, "top", context: .detail),
        KeyBinding([.char("G"), .end], .bottom, "bottom", context: .detail),
        KeyBinding([.pageUp, .ctrl("b")], .pageUp, "page up", context: .detail),
        KeyBinding([.pageDown, .ctrl("f")], .pageDown, "page down", context: .detail),
        KeyBinding([.enter], .open, "open the task that asked", context: .detail, footer: "open task"),

        KeyBinding([.enter], .submit, "run the command / apply the filter", context: .textInput, footer: "run"),
        KeyBinding([.tab], .complete, "complete a pane name", context: .commandLine, footer: "complete"),
        KeyBinding([.escape], .cancel, "cancel (a filter is cleared)", context: .textInput, footer: "cancel"),
        KeyBinding([.backspace], .deleteBackward, "delete the last character", context: .textInput),

        KeyBinding([], .jumpByNumber, "open that pane (as its number key)", context: .mouse, label: "click NAV//"),
        KeyBinding([], .back, "back to that pane (as q, a step at a time)", context: .mouse, label: "click crumb"),
        KeyBinding(
            [], .moveDown, "select it (j/k); the selected row or a double click: Enter", context: .mouse,
            label: "click row"),
        KeyBinding(
            [], .focusNext, "Home: focus it (Tab) or select its row; again: Enter", context: .mouse,
            label: "click card"),
        KeyBinding(
            [], .moveDown, "lists: a row (j/k); text views: 3 lines (k stops following)", context: .mouse,
            label: "wheel"),
        KeyBinding([], .openNotification, "open what it names (as o)", context: .mouse, label: "click toast"),
        KeyBinding([], .openLink(0), "open that output link (as :open N)", context: .mouse, label: "click link"),
        KeyBinding([], .help, "close help (Esc); the wheel scrolls it", context: .mouse, label: "click in help"),
    ]
}
