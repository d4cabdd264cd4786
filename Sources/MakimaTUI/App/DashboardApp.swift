import CNcursesShim
import Foundation
import MakimaKit

/// How to start the dashboard.
public struct DashboardOptions: Sendable {
    /// Theme name or path (`--theme`); nil: `MAKIMA_THEME`, then the default.
    public var theme: String?
    /// `--color=auto|always|never`.
    public var colorPreference: ColorPreference
    /// Shown in the masthead, e.g. "makima.jp".
    public var serverLabel: String
    public var version: String
    public var initialConnection: ConnectionPillState
    /// On 256-colour terminals that allow it, redefine palette entries to the theme's exact
    /// colours (`endwin` puts them back).
    public var redefineColors: Bool
    /// Called on the UI thread once the screen is up: keep the session to feed data in.
    public var onStart: (@MainActor @Sendable (DashboardSession) -> Void)?

    public init(theme: String? = nil, colorPreference: ColorPreference = .auto, serverLabel: String = "makima.jp",
                version: String = MakimaVersion.current, initialConnection: ConnectionPillState = .idle,
                redefineColors: Bool = true, onStart: (@MainActor @Sendable (DashboardSession) -> Void)? = nil) {
        self.theme = theme
        self.colorPreference = colorPreference
        self.serverLabel = serverLabel
        self.version = version
        self.initialConnection = initialConnection
        self.redefineColors = redefineColors
        self.onStart = onStart
    }
}

/// The running dashboard, as the data layer sees it. UI thread only; other threads go
/// through `bus` (`session.bus.post { session.setConnectionPill(.online) }`).
@MainActor
public final class DashboardSession {
    public let bus: UIBus
    private unowned let loop: EventLoop

    init(bus: UIBus, loop: EventLoop) {
        self.bus = bus
        self.loop = loop
    }

    public func setConnectionPill(_ state: ConnectionPillState) { loop.setConnectionPill(state) }

    /// Changes panes (their view models) and redraws.
    public func updatePanes(_ body: (inout PaneStack) -> Void) {
        body(&loop.app.stack)
        loop.setNeedsDisplay()
    }

    public func updateHome(_ model: HomeViewModel) {
        updatePanes { $0.update(.home, as: HomePane.self) { $0.model = model } }
    }

    public func updateList(_ id: PaneID, _ model: ListPaneViewModel) {
        updatePanes { $0.update(id, as: ListPane.self) { $0.update(model) } }
    }

    /// Runs `action` on the UI thread after `seconds` (replacing a timer with the same id).
    public func schedule(after seconds: Double, id: String, _ action: @escaping @MainActor () -> Void) {
        loop.timers.schedule("session." + id, at: Clocks.monotonic() + seconds, action)
    }

    public func setNeedsDisplay() { loop.setNeedsDisplay() }
    public func bell() { loop.screen.bell() }
    public func quit() { loop.requestExit(0) }
}

/// The full-screen dashboard.
public enum DashboardApp {
    /// Runs until the user quits; returns the process exit code. Restores the terminal on
    /// every way out (quit keys, SIGINT, SIGTERM, SIGHUP, and crashes via `SignalRelay`).
    @MainActor
    public static func run(options: DashboardOptions) -> Int32 {
        let utf8 = TerminalLocale.configure()
        let environment = ProcessInfo.processInfo.environment
        let loader = ThemeLoader(searchDirectories: ThemeSearchPath.forCurrentProcess())
        let theme = loader.loadOrFallback(ThemeSelection.request(flag: options.theme,
                                                                  environment: environment[ThemeSelection.environmentVariable],
                                                                  config: nil))
        let wake: WakePipe
        let screen: NcursesScreen
        do {
            wake = try WakePipe()
            SignalRelay.install(wakeFD: wake.writeFD)
            screen = try NcursesScreen()
        } catch {
            FileHandle.standardError.write(Data("makima-tui: \(error)\n".utf8))
            return 1
        }
        let detection = ColorDetection.detect(environment: environment, colors: screen.hasColors ? Int(mk_colors()) : 0,
                                              canChangeColor: can_change_color(), preference: options.colorPreference)
        let palette = ColorMapper.palette(for: theme.theme, detection: detection, redefineColors: options.redefineColors)
        let backend = NcursesBackend(palette: palette, utf8: utf8)

        let masthead = MastheadModel(serverLabel: options.serverLabel, version: options.version,
                                     pill: options.initialConnection, clock: "")
        var app = AppState(masthead: masthead, glyphs: utf8 ? .unicode : .ascii)
        let status = statusRows(environment: environment, utf8: utf8, palette: palette, theme: theme)
        app.stack.update(.home, as: HomePane.self) { $0.model.statusRows = status }

        let bus = UIBus(wakePipe: wake)
        let loop = EventLoop(app: app, screen: screen, backend: backend, wake: wake, bus: bus)
        let session = DashboardSession(bus: bus, loop: loop)
        loop.setConnectionPill(options.initialConnection)
        options.onStart?(session)
        let code = loop.run()
        screen.end()
        if let problem = theme.problem {
            FileHandle.standardError.write(Data("makima-tui: \(problem.description); used theme \(theme.theme.name)\n".utf8))
        }
        return code
    }

    /// docs/keys.md (for `makima-tui --print-keymap`).
    public static func keyMapMarkdown() -> String { KeyMap.standard.markdown() }

    static func statusRows(environment: [String: String], utf8: Bool, palette: ResolvedPalette,
                           theme: ThemeLoadOutcome) -> [StatusRow] {
        let colours: String
        switch palette.capability {
        case .direct: colours = "TRUE COLOUR"
        case .palette256: colours = palette.redefinitions.isEmpty ? "256" : "256, EXACT"
        case .palette16: colours = "16"
        case .none: colours = "NONE"
        }
        return [
            StatusRow("Terminal", (environment["TERM"] ?? "?").uppercased(), .ok),
            StatusRow("Locale", utf8 ? "UTF-8" : "ASCII FALLBACK", utf8 ? .ok : .warn),
            StatusRow("Colours", colours, palette.capability == .none ? .muted : .ok),
            StatusRow("Theme", theme.theme.name.uppercased(), theme.problem == nil ? .ok : .warn),
            StatusRow("Network", "NOT WIRED", .warn),
        ]
    }
}
