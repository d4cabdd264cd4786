/// Everything the dashboard shows and how keys change it, without any terminal: the event
/// loop feeds it keys and time and flushes what it renders; tests do the same with a
/// `MemoryBackend`.
public struct AppState {
    public static let minimumSize = (width: 60, height: 16)

    public var stack: PaneStack
    public var keyMap: KeyMap
    /// The masthead, banner, toast and the rest that no MakimaKit store holds; shared with the
    /// controller (`DashboardSession.chrome`) and observed by the event loop's frames.
    public let chrome: ChromeStore
    public var masthead: MastheadModel {
        get { chrome.masthead }
        nonmutating set { chrome.set(\.masthead, newValue) }
    }
    public var glyphs: Glyphs
    public internal(set) var gloss = GlossReveal()
    public internal(set) var helpOpen = false
    public internal(set) var helpScroll = 0
    /// The stored profiles' names, handed to the command line for `:profile`'s completion.
    public var profileNames: [String] = []
    public internal(set) var commandLine: CommandLineState?
    public internal(set) var quitRequested = false
    /// `q` on the first pane asks `Quit? y/n` instead of quitting (Q, `:q` and Ctrl-C quit at once).
    public internal(set) var quitPromptOpen = false
    /// Set by Ctrl-L: the event loop repaints every cell.
    public var fullRedrawRequested = false
    /// What the user asked of the data layer since the event loop last took them.
    public internal(set) var requests: [DashboardRequest] = []
    /// Escape sequences for the terminal itself (OSC 52 copies), sent between frames.
    public private(set) var terminalWrites: [String] = []
    /// A line under the NAV// strip on every pane (e.g. the server refused the key).
    public var banner: NoticeLine? {
        get { chrome.banner }
        nonmutating set { chrome.set(\.banner, newValue) }
    }
    /// A short-lived line above the footer (a task failed, a question arrived).
    public var toast: NoticeLine? {
        get { chrome.toast }
        nonmutating set { chrome.set(\.toast, newValue) }
    }
    /// False while the input being handled came in a burst of keys, with a paste, right behind
    /// one, or is a click: it cannot confirm a destructive action (`allows`) nor quit
    /// (`requestQuit`). The event loop sets it per key (`BurstGuard`).
    public var keyIsDeliberate = true
    /// What the mouse can hit in the last frame, and the last click (`MouseDispatch`).
    public internal(set) var pointer = PointerState()

    public init(
        masthead: MastheadModel, glyphs: Glyphs = .unicode, keyMap: KeyMap = .standard,
        make: ((PaneID) -> any Pane)? = nil
    ) {
        chrome = ChromeStore(masthead: masthead)
        self.glyphs = glyphs
        self.keyMap = keyMap
        // Panes are made as `PaneRegistry` describes them unless a test says otherwise.
        stack = PaneStack(make: make ?? { $0.spec.make() })
    }

    public var context: RenderContext { RenderContext(glyphs: glyphs, glossRevealed: gloss.revealed) }
    public var isTyping: Bool { commandLine != nil || stack.top.isEditingText }

    /// Contexts for key lookup, most specific first.
    public var activeContexts: [KeyContext] {
        guard isTyping else { return stack.top.keyContexts + [.global] }
        return (commandLine == nil ? stack.top.typingContexts : [.commandLine]) + [.textInput]
    }
    public var footerHints: [KeyBinding] { keyMap.footerHints(in: activeContexts) }
    public var helpSections: [(context: KeyContext, bindings: [KeyBinding])] {
        keyMap.helpSections(modes: [
            stack.top.keyContexts + [.global], stack.top.typingContexts + [.commandLine, .textInput], [.mouse],
        ])
    }

    // MARK: Keys and time

    /// Handles one key at monotonic time `now` (seconds). Returns true when the screen changed.
    @discardableResult
    public mutating func handle(_ key: Key, now: Double) -> Bool {
        let before = stack.ids
        defer { if stack.ids != before { requests.append(.paneShown(stack.top.section)) } }
        gloss.settle(at: now)
        if helpOpen { return handleInHelp(key) }
        if quitPromptOpen { return answerQuitPrompt(key) }
        if isTyping, commandLine == nil, let action = keyMap.action(for: key, in: stack.top.typingContexts) {
            return respond(stack.withTop { $0.handle(action) })
        }
        if isTyping, let edit = textEdit(for: key) { return apply(edit) }
        let contexts = isTyping ? [KeyContext.global] : activeContexts
        guard let action = keyMap.action(for: key, in: contexts) else { return false }
        if isTyping && action != .quit && action != .redraw { return false }
        return perform(action, key: key, now: now)
    }

    /// Lets time pass (the gloss hold ending, a step of a pane's pending work such as a long
    /// search). Returns true when the screen changed.
    @discardableResult
    public mutating func tick(now: Double) -> Bool {
        let before = gloss.revealed
        gloss.settle(at: now)
        return gloss.revealed != before || stack.top.hasPendingWork
    }

    /// Hands over the queued requests (the event loop passes them to the data layer).
    public mutating func takeRequests() -> [DashboardRequest] {
        defer { requests.removeAll() }
        return requests
    }

    /// Hands over the queued escape sequences (the event loop writes them through the backend).
    public mutating func takeTerminalWrites() -> [String] {
        defer { terminalWrites.removeAll() }
        return terminalWrites
    }

    /// The next moment `tick` has something to do, if any.
    public var nextDeadline: Double? { gloss.nextDeadline }

    mutating func respond(_ response: PaneResponse) -> Bool {
        switch response {
        case .handled: return true
        case .ignored: return false
        case .open(let id):
            stack.jump(to: id)
            return true
        case .push(let pane):
            stack.push(pane)
            return true
        case .request(let r):
            if allows(r) { requests.append(r) }
            return false
        case .copy(let text, let what):
            terminalWrites.append(Clipboard.osc52(text))
            requests.append(.toast("copied " + what))
            return true
        }
    }

    // MARK: Rendering

    /// Draws the whole screen into a new buffer of the given size.
    public mutating func render(width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height, style: CellStyle(fg: .body, bg: .background))
        let ctx = context
        // Every cell's colour is the theme's: read here, a new theme draws the next frame.
        _ = chrome.themeName
        guard width >= Self.minimumSize.width, height >= Self.minimumSize.height else {
            TooSmallNotice.render(into: &buffer, minimum: Self.minimumSize, context: ctx)
            pointer.frame = buffer
            return buffer
        }
        MastheadBar.render(masthead, into: &buffer, row: buffer.bounds.row(0), context: ctx)
        NavStrip.render(
            current: stack.top.section, path: stack.top.isTopLevel ? [] : stack.panes.map(\.crumb), into: &buffer,
            row: buffer.bounds.row(1), context: ctx)
        var content = Rect(x: 0, y: 2, width: width, height: height - 3)
        if let banner {
            NoticeBar.render(banner, into: &buffer, row: content.row(0), context: ctx)
            content = content.inset(top: 1)
        }
        if let toast {
            NoticeBar.render(toast, into: &buffer, row: content.row(content.height - 1), context: ctx)
            buffer.mark(content.row(content.height - 1), .toast)
            content = content.inset(bottom: 1)
        }
        stack.withTop { $0.render(into: &buffer, region: content, context: ctx) }
        if helpOpen {
            let maxScroll = HelpOverlay.render(
                helpSections, scroll: helpScroll, into: &buffer, region: content, context: ctx)
            helpScroll = min(helpScroll, maxScroll)
        }
        let footer = buffer.bounds.row(height - 1)
        if quitPromptOpen {
            FooterBar.renderPrompt("Quit? y/n", into: &buffer, row: footer, context: ctx)
        } else if let line = commandLine {
            FooterBar.renderCommandLine(line, into: &buffer, row: footer, context: ctx)
        } else {
            FooterBar.render(
                hints: footerHints, status: stack.top.footerStatus, into: &buffer, row: footer, context: ctx)
        }
        pointer.frame = buffer
        return buffer
    }
}
