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

/// One entry of the key map: keys, the action they stand for, the help's line and the
/// footer's word, in one context. Declared beside the code that answers the action (the
/// app's, a pane kind's or a controller's `keyBindings`); `KeyMap.standard` composes them.
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

extension KeyBinding {
    /// The six scroll keys, the same in every context that scrolls (a list's selection, the
    /// task output, a transcript, a detail): j/↓, k/↑, g/Home, G/End, PgUp/Ctrl-B and
    /// PgDn/Ctrl-F. A context gives only what differs: what each line says, `alsoBottom`
    /// keys that go to the end too (the task output's F, after G) and the footer's word for
    /// the end (`bottomHint`; without one the end is not in the footer).
    static func scrolling(
        _ context: KeyContext, down: String, up: String, top: String, bottom: String, alsoBottom: [Key] = [],
        bottomHint: String? = nil
    ) -> [KeyBinding] {
        [
            KeyBinding([.char("j"), .down], .moveDown, down, context: context, footer: "down"),
            KeyBinding([.char("k"), .up], .moveUp, up, context: context, footer: "up"),
            KeyBinding([.char("g"), .home], .top, top, context: context),
            KeyBinding([.char("G")] + alsoBottom + [.end], .bottom, bottom, context: context, footer: bottomHint),
            KeyBinding([.pageUp, .ctrl("b")], .pageUp, "page up", context: context),
            KeyBinding([.pageDown, .ctrl("f")], .pageDown, "page down", context: context),
        ]
    }
}
