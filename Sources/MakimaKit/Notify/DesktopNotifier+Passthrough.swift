extension DesktopNotifier {
    static let passthroughJobKey = "tmux-allow-passthrough"

    /// Inside tmux (with its binary found), asks it once whether passthrough is allowed: the
    /// global value and the pane's, on the launcher (no shell, each bounded by the child
    /// timeout). `answered` gets what each printed (nil: no answer) on the launcher's thread;
    /// the caller hands them to `passthroughAnswered` on its own. False when nothing is asked.
    @discardableResult
    public func askTmuxPassthrough(_ answered: @escaping @Sendable (_ global: String?, _ pane: String?) -> Void)
        -> Bool
    {
        guard route.insideTmux, route.terminal, let tmux = route.tmux, let launcher else { return false }
        let commands = [TmuxPassthrough.globalArguments, TmuxPassthrough.paneArguments(pane: pane)].map {
            ChildLauncher.Command(tmux, $0, timeout: childTimeout)
        }
        let submitted = launcher.submitCapturing(key: Self.passthroughJobKey, commands) { printed in
            let text = printed.map { $0.map { String(decoding: $0, as: UTF8.self) } }
            answered(text.first ?? nil, text.count > 1 ? text[1] : nil)
        }
        return submitted == .queued
    }

    /// Takes tmux's answer (the caller's thread): the terminal routes from now on, and the
    /// notice to show when a route is left out.
    public func passthroughAnswered(global: String?, pane: String?) -> String? {
        terminalRoutes = TmuxPassthrough.routes(insideTmux: route.insideTmux, global: global, pane: pane)
        return terminalRoutes.notice
    }
}
