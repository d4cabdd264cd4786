/// The one table of key bindings, composed from the declarations beside the code that answers
/// each (`standard`). It drives key dispatch, the footer hints, the `?` help overlay and
/// docs/keys.md (`+Markdown`), so they cannot disagree.
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

    /// The dashboard's keys, each declared beside the code that answers it: the app's
    /// (`AppState+Keys`, typing in `AppState+CommandLine`, the mouse in `MouseDispatch`), each
    /// pane kind's (`keyBindings` of `ListView` for every pane with a list, `ListPane`,
    /// `TaskOutputPane`, `HomePane`, `TranscriptPane`, `DirectiveDetailPane`) and each
    /// controller's (`keyBindings` in `Controller/`). Grouped by context in `contextOrder`;
    /// within one, in the order listed here.
    public static let standard = KeyMap(
        composing: [
            NavigationController.keyBindings, AppState.keyBindings, ListView.keyBindings, ListPane.keyBindings,
            TaskOutputPane.keyBindings, HomePane.keyBindings, TranscriptPane.keyBindings,
            DirectiveDetailPane.keyBindings, AppState.typingKeyBindings, AppState.mouseBindings,
            RefreshController.keyBindings, SignInController.keyBindings, NotificationController.keyBindings,
            TaskOutputController.keyBindings, NeedsYouController.keyBindings,
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
}
