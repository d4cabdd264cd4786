import CNcursesShim
import Foundation
import MakimaKit
import Observation

/// How to start the dashboard.
public struct DashboardOptions: Sendable {
    /// The theme asked for: `--theme`, then `MAKIMA_THEME`, then the config's.
    func themeRequest(environment: [String: String]) -> String {
        ThemeSelection.request(
            flag: theme, environment: environment[ThemeSelection.environmentVariable], config: configTheme)
    }

    /// Theme name or path (`--theme`); nil: `MAKIMA_THEME`, then the default.
    public var theme: String?
    /// The theme saved in the config file, used when neither `--theme` nor `MAKIMA_THEME` says.
    public var configTheme: String?
    /// `--color=auto|always|never`.
    public var colorPreference: ColorPreference
    /// Shown in the masthead, e.g. "makima.jp".
    public var serverLabel: String
    public var version: String
    public var initialConnection: ConnectionPillState
    /// On 256-colour terminals that allow it, redefine palette entries to the theme's exact
    /// colours (`endwin` puts them back).
    public var redefineColors: Bool
    /// Ask the terminal for mouse reports (`--no-mouse` and Settings › mouse turn it off).
    public var mouse = true
    /// Called on the UI thread once the screen is up: keep the session to feed data in.
    public var onStart: (@MainActor @Sendable (DashboardSession) -> Void)?

    public init(
        theme: String? = nil, colorPreference: ColorPreference = .auto, serverLabel: String = "makima.jp",
        version: String = MakimaVersion.current, initialConnection: ConnectionPillState = .idle,
        redefineColors: Bool = true, onStart: (@MainActor @Sendable (DashboardSession) -> Void)? = nil
    ) {
        self.theme = theme
        self.colorPreference = colorPreference
        self.serverLabel = serverLabel
        self.version = version
        self.initialConnection = initialConnection
        self.redefineColors = redefineColors
        self.onStart = onStart
    }
}

/// The full-screen dashboard.
public enum DashboardApp {
    /// Runs until the user quits; returns the process exit code. Restores the terminal on
    /// every way out (quit keys, SIGINT, SIGTERM, SIGHUP, and crashes via `SignalRelay`).
    @MainActor
    public static func run(options: DashboardOptions) -> Int32 {
        StartupReport.mark("dashboard")
        let utf8 = TerminalLocale.configure()
        DrawnText.asciiOnly.store(!utf8, ordering: .relaxed)
        let environment = ProcessInfo.processInfo.environment
        let loader = ThemeLoader(searchDirectories: ThemeSearchPath.forCurrentProcess())
        let theme = loader.loadOrFallback(options.themeRequest(environment: environment))
        StartupReport.mark("theme")
        let wake: WakePipe
        let screen: NcursesScreen
        let terminfo = TerminfoChoice.choose(environment: environment)
        do {
            wake = try WakePipe()
            SignalRelay.install(wakeFD: wake.writeFD)
            screen = try NcursesScreen(
                termName: terminfo.usesDirectEntry ? terminfo.used : nil, mouse: options.mouse)
        } catch {
            FileHandle.standardError.write(Data("makima-tui: \(error)\n".utf8))
            return error.exitStatus
        }
        StartupReport.mark("terminal")
        let detection = ColorDetection.detect(
            environment: environment, colors: screen.hasColors ? Int(mk_colors()) : 0,
            canChangeColor: can_change_color(), preference: options.colorPreference)
        let palette = ColorMapper.palette(
            for: theme.theme, detection: detection, redefineColors: options.redefineColors)
        let backend = NcursesBackend(palette: palette, utf8: utf8)
        if HyperlinkSupport.detect(environment: environment) { backend.enableHyperlinks() }
        StartupReport.mark("palette")

        let masthead = MastheadModel(
            serverLabel: options.serverLabel, version: options.version,
            pill: options.initialConnection, clock: "")
        var app = AppState(masthead: masthead, glyphs: utf8 ? .unicode : .ascii)
        let status = statusRows(
            environment: environment, utf8: utf8, palette: palette, theme: theme, terminfo: terminfo)
        app.stack.update(.home, as: HomePane.self) { $0.model.statusRows = status }

        let bus = UIBus(wakePipe: wake)
        let loop = EventLoop(
            app: app, terminal: NcursesTerminal(screen: screen, backend: backend), wake: wake, bus: bus)
        let session = DashboardSession(bus: bus, loop: loop)
        let live = LivePalette(
            theme: theme.theme, loader: loader, backend: backend, detection: detection,
            redefine: options.redefineColors)
        session.start(
            theme: theme, colorMode: colorModeText(palette: palette, terminfo: terminfo), mouse: options.mouse,
            palette: live)
        loop.setConnectionPill(options.initialConnection)
        loop.afterFirstFrame { StartupReport.firstFrameFlushed() }
        options.onStart?(session)
        StartupReport.mark("controller")
        let code = loop.run()
        screen.end()
        if let problem = theme.problem {
            FileHandle.standardError.write(
                Data("makima-tui: \(problem.description); used theme \(theme.theme.name)\n".utf8))
        }
        return code
    }

    /// docs/keys.md (for `makima-tui --print-keymap`).
    public static func keyMapMarkdown() -> String { KeyMap.standard.markdown() }

    /// The colour mode in words, and the terminfo entry when a `-direct` one replaced TERM.
    static func colorModeText(palette: ResolvedPalette, terminfo: TerminfoChoice) -> String {
        let text = terminfo.describe(palette.capability)
        return palette.capability == .palette256 && !palette.redefinitions.isEmpty ? text + ", EXACT" : text
    }

    static func statusRows(
        environment: [String: String], utf8: Bool, palette: ResolvedPalette,
        theme: ThemeLoadOutcome, terminfo: TerminfoChoice = TerminfoChoice(requested: "", used: "")
    ) -> [StatusRow] {
        let colours = colorModeText(palette: palette, terminfo: terminfo).uppercased()
        return [
            StatusRow("Terminal", (environment["TERM"] ?? "?").uppercased(), .ok),
            StatusRow("Locale", utf8 ? "UTF-8" : "ASCII FALLBACK", utf8 ? .ok : .warn),
            StatusRow("Colours", colours, palette.capability == .none ? .muted : .ok),
            StatusRow("Theme", theme.theme.name.uppercased(), theme.problem == nil ? .ok : .warn),
            StatusRow("Network", "NOT WIRED", .warn),
        ]
    }
}
