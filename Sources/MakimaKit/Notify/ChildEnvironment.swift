/// The environment handed to a helper program (tmux, notify-send): only what it needs to find
/// its server or desktop session and print text. Everything else stays behind, so
/// `MAKIMA_API_KEY` and any other token in the parent's environment never reach a child.
public enum ChildEnvironment {
    static let allowed: Set<String> = [
        "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TERM", "TMUX", "TMUX_PANE", "TMUX_TMPDIR",
        "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
    ]

    public static func filter(_ environment: [String: String]) -> [String: String] {
        environment.filter { allowed.contains($0.key) || $0.key.hasPrefix("LC_") }
    }
}
