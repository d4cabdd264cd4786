import Foundation

/// Where desktop notifications go, decided once at start from the environment:
/// - `terminal`: OSC 777 + OSC 9 on the terminal the app writes to (wrapped for tmux inside
///   tmux); needs that output to be a terminal other than the Linux console (which would print
///   the sequence's text).
/// - `tmuxStatus`: inside tmux, also `tmux display-message` (the pane may be out of view).
/// - `notifySend`: `notify-send` when no terminal route applies and a desktop session is there.
public struct NotificationRoute: Sendable, Equatable {
    public var terminal: Bool
    public var insideTmux: Bool
    /// The tmux binary, when inside tmux and one is on PATH.
    public var tmux: String?
    /// The notify-send binary, only when `terminal` is false.
    public var notifySend: String?

    public init(terminal: Bool, insideTmux: Bool, tmux: String?, notifySend: String?) {
        self.terminal = terminal
        self.insideTmux = insideTmux
        self.tmux = tmux
        self.notifySend = notifySend
    }

    public static func detect(environment: [String: String], outputIsTerminal: Bool) -> NotificationRoute {
        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        let term = (environment["TERM"] ?? "").lowercased()
        let terminal = outputIsTerminal && !term.isEmpty && term != "dumb" && term != "linux"
        let hasDesktop =
            !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
            || !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty
        return NotificationRoute(
            terminal: terminal, insideTmux: insideTmux,
            tmux: insideTmux ? executable("tmux", environment: environment) : nil,
            notifySend: !terminal && hasDesktop ? executable("notify-send", environment: environment) : nil)
    }

    /// The first executable `name` on the environment's PATH (absolute directories only: a
    /// relative PATH entry would run whatever the current directory holds).
    public static func executable(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where dir.hasPrefix("/") {
            let candidate = dir + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
