/// The environment handed to every child (`ChildLauncher`: tmux, notify-send, xdg-open): only
/// what it needs to find its server or desktop session, the browser, and print text. Everything
/// else stays behind, so `MAKIMA_API_KEY` and any other token in the parent's environment never
/// reach a child (nor, through xdg-open, a browser).
public enum ChildEnvironment {
    static let allowed: Set<String> = [
        "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TERM", "TMUX", "TMUX_PANE", "TMUX_TMPDIR",
        "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS",
        // How xdg-open finds the desktop's opener and the operator's browser.
        "BROWSER", "DESKTOP_SESSION", "KDE_FULL_SESSION", "KDE_SESSION_VERSION", "GNOME_DESKTOP_SESSION_ID",
    ]
    /// Families of variables kept whole: the locale and the XDG base directories and session.
    static let allowedPrefixes = ["LC_", "XDG_"]

    public static func filter(_ environment: [String: String]) -> [String: String] {
        environment.filter { isAllowed($0.key) }
    }

    /// Never a `MAKIMA_` variable, whatever the lists above say.
    static func isAllowed(_ name: String) -> Bool {
        guard !name.hasPrefix("MAKIMA_") else { return false }
        return allowed.contains(name) || allowedPrefixes.contains { name.hasPrefix($0) }
    }
}
