import CNcursesShim
import Foundation
import MakimaKit
import Observation

/// The running dashboard, as the data layer sees it. UI thread only; other threads go
/// through `bus` (`session.bus.post { session.setConnectionPill(.online) }`).
///
/// The chrome (masthead, banner, toast, theme, Home's notice and activity, the grep answer)
/// lives in `chrome`, observed by the loop's frames and the panes' builds: setting it is all
/// a caller does. Observable itself for mouse reporting, which Settings shows.
@MainActor @Observable
public final class DashboardSession {
    public let bus: UIBus
    private unowned let loop: EventLoop

    init(bus: UIBus, loop: EventLoop) {
        self.bus = bus
        self.loop = loop
    }

    public func setConnectionPill(_ state: ConnectionPillState) { loop.setConnectionPill(state) }

    /// The server named in the masthead (after signing in to another one).
    /// The stored profiles' names, for `:profile`'s completion.
    public func setProfileNames(_ names: [String]) { loop.app.profileNames = names }

    public func setServerLabel(_ label: String) { loop.app.masthead.serverLabel = label }

    /// `NEEDS YOU n` in the masthead (set only when it changes: the masthead is observed).
    public func setNeedsYouCount(_ count: Int) {
        if loop.app.masthead.needsYou != count { loop.app.masthead.needsYou = count }
    }

    /// What the screen shows beside the stores; observed (no frame is asked for by hand).
    public var chrome: ChromeStore { loop.app.chrome }

    /// Changes the pane stack (a pane pushed or popped, a row selected, a model rebuilt from
    /// the stores) and asks for a frame: the stack is the UI's own state, not observed.
    public func updatePanes(_ body: (inout PaneStack) -> Void) {
        body(&loop.app.stack)
        loop.setNeedsDisplay()
    }

    /// Changes part of Home's model (the launcher's SYSTEM// rows stay as they are).
    public func updateHome(_ body: (inout HomeViewModel) -> Void) {
        updatePanes { $0.update(.home, as: HomePane.self) { body(&$0.model) } }
    }

    public func updateList(_ id: PaneID, _ model: ListPaneViewModel) {
        updatePanes { $0.update(id, as: ListPane.self) { $0.update(model) } }
    }

    /// Drills into `pane` on top of the current one.
    public func push(_ pane: any Pane) { updatePanes { $0.push(pane) } }

    /// The pane on screen (drill-down panes included).
    public var topPane: any Pane { loop.app.stack.top }

    /// What the panes on the stack read from the stores' detail maps, bottom to top.
    var detailLinks: [DeepLink] { loop.app.stack.panes.flatMap(\.detailLinks) }

    /// Unicode or ASCII, as the terminal's locale allows.
    public var glyphs: Glyphs { loop.app.glyphs }

    /// Keys that only the data layer can act on (refresh, open a row, a pane shown), on the UI thread.
    public var onRequest: (@MainActor (DashboardRequest) -> Void)? {
        get { loop.requestHandler }
        set { loop.requestHandler = newValue }
    }

    /// What each build read, and so what a change makes dirty (the loop's one change tracker).
    var bindings: PaneBindings { loop.bindings }

    /// Drains the engine's outbox into the stores, once a turn (true: there was something);
    /// and whether it holds anything (the loop's wait is paced by it).
    func onDrain(_ drain: @escaping @MainActor () -> Bool, pending: @escaping @MainActor () -> Bool) {
        loop.drain = drain
        loop.drainPending = pending
    }

    /// Runs just before each frame is drawn (dirty view models are rebuilt there).
    var onBeforeDraw: (@MainActor () -> Void)? {
        get { loop.beforeDraw }
        set { loop.beforeDraw = newValue }
    }
    /// Runs when an age on screen would read differently (`AgeClock`).
    var onAgesDue: (@MainActor () -> Void)? {
        get { loop.onAgesDue }
        set { loop.onAgesDue = newValue }
    }

    /// A line under NAV// on every pane until cleared (nil).
    public func setBanner(_ notice: NoticeLine?) { chrome.set(\.banner, notice) }

    /// The line above the footer (nil hides it); the caller times it out.
    public func setToast(_ notice: NoticeLine?) { chrome.set(\.toast, notice) }

    /// Runs `action` on the UI thread after `seconds` (replacing a timer with the same id).
    public func schedule(after seconds: Double, id: String, _ action: @escaping @MainActor () -> Void) {
        loop.timers.schedule("session." + id, at: loop.clock() + seconds, action)
    }

    public func cancelTimer(id: String) { loop.timers.cancel("session." + id) }

    /// Runs `action` once the first frame has been flushed (at once after that): what can
    /// wait, such as the network, does not hold up the first screen.
    public func afterFirstFrame(_ action: @escaping @MainActor () -> Void) { loop.afterFirstFrame(action) }
    public func bell() { loop.terminal.bell() }
    public var terminalFocused: Bool? { loop.terminalFocused }
    /// The colour mode in use, for Settings › About (e.g. `TRUE COLOUR (tmux-direct)`).
    public internal(set) var colorMode = ""
    /// The theme on screen (the chrome's), and how to change it live (Settings): nil when the
    /// terminal cannot.
    public var themeName: String { chrome.themeName }
    @ObservationIgnored var palette: LivePalette?

    /// Loads `request` (a built-in name or a theme file) and draws with it from the next frame.
    /// Returns the theme's name, or why it could not be loaded (the theme on screen stays).
    public func applyTheme(_ request: String) -> Result<String, ThemeLoadError> {
        // Without a changer (a memory terminal) the name is only recorded.
        let result = palette?.setTheme(request) ?? .success(request)
        if case .success(let name) = result {
            // Home's SYSTEM// card and Settings read it there; the palette is the backend's,
            // and its change shows with the frame this write asks for.
            chrome.set(\.themeName, name)
            chrome.set(\.themeLevel, .ok)
        }
        return result
    }
    /// The shown profile's accent over the theme (`ProfileAccent`), nil for the theme's own;
    /// Home's SYSTEM// theme row names it. Why it could not be resolved, if so (the colours stay).
    public func applyAccent(_ spec: String?) -> Result<Void, ThemeLoadError> {
        let result = palette?.setAccent(spec) ?? .success(())
        if case .success = result { chrome.set(\.accent, spec) }
        return result
    }
    /// The stored profiles' accents (MESHES// order, nil: none) on their marks there.
    public func applyMeshMarks(_ accents: [String?]) { palette?.setMeshMarks(accents) }
    /// Writes an app-made control sequence (a desktop notification) to the terminal between frames.
    public func writeTerminalControl(_ bytes: [UInt8]) { if !bytes.isEmpty { loop.terminal.writeControl(bytes) } }
    /// Whether the terminal is asked for mouse reports.
    public internal(set) var mouseReporting = true
    public func setMouseReporting(_ on: Bool) {
        mouseReporting = on
        loop.terminal.setMouseReporting(on)
    }
    public func quit() { loop.requestExit(0) }

    /// What the start chose: the theme on screen (warned when it is not the one asked for),
    /// the colour mode, mouse reporting, and how Settings changes the theme.
    func start(
        theme: ThemeLoadOutcome, colorMode: String, mouse: Bool,
        palette: LivePalette
    ) {
        self.colorMode = colorMode
        chrome.themeName = theme.theme.name
        chrome.themeLevel = theme.problem == nil ? .ok : .warn
        mouseReporting = mouse
        self.palette = palette
    }
}
