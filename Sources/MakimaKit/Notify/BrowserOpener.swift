/// Opens an address in the desktop's browser with `xdg-open`, when there is a desktop session
/// and `xdg-open` is installed (the sign-in pane's "where do I get a key?").
public enum BrowserOpener {
    /// The `xdg-open` binary, when a desktop session is there to show a browser.
    public static func command(environment: [String: String]) -> String? {
        let hasDesktop = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        return hasDesktop ? NotificationRoute.executable("xdg-open", environment: environment) : nil
    }

    /// Runs `xdg-open url` and waits up to 10 s: call it off the UI thread. True when it exited 0.
    @discardableResult
    public static func open(_ url: String, with command: String, environment: [String: String]) -> Bool {
        ChildProcess.run(command, [url], environment: ChildEnvironment.filter(environment), timeout: 10)
            == .exited(0)
    }
}
