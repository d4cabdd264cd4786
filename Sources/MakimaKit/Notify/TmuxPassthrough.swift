import Foundation

/// Inside tmux, the wrapped OSC 777/9 reaches the outer terminal only when the pane allows
/// passthrough (tmux 3.3 and later default to off, and then drop the sequence silently). The
/// notifier asks tmux once at start and, when it is off, stops sending what would be dropped
/// and says so, rather than let the operator believe notifications work.
public enum TmuxPassthrough {
    /// What the notifier writes to the terminal for one notification.
    public struct Routes: Sendable, Equatable {
        /// OSC 777 and OSC 9 (in tmux's passthrough wrapper inside tmux).
        public var osc: Bool
        /// One BEL outside any sequence: tmux then sets the window's bell flag, which a
        /// window out of view (or a detached session's) shows in the status line.
        public var bell: Bool
        /// A line for the dashboard (and `watch`'s stderr), when something does not go out.
        public var notice: String?

        public init(osc: Bool, bell: Bool, notice: String? = nil) {
            self.osc = osc
            self.bell = bell
            self.notice = notice
        }
    }

    public static let refusedNotice =
        "tmux: allow-passthrough is off, so desktop notifications go by bell and message only (set -g allow-passthrough on)"

    /// `tmux show -gv allow-passthrough`: the global value.
    public static let globalArguments = ["show", "-gv", "allow-passthrough"]

    /// `tmux show -pv allow-passthrough`: the pane's own value (empty when it has none).
    public static func paneArguments(pane: String?) -> [String] {
        ["show", "-pv"] + (pane.map { ["-t", $0] } ?? []) + ["allow-passthrough"]
    }

    /// Whether passthrough is allowed, from what the two `show` commands printed (nil: the
    /// command failed or timed out). The pane's value, when it has one, wins. Nil when tmux
    /// said nothing usable: a tmux older than 3.3 has no such option and forwards passthrough.
    public static func allowed(global: String?, pane: String?) -> Bool? {
        func value(_ s: String?) -> String? {
            let v = s?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() ?? ""
            return v.isEmpty ? nil : v
        }
        guard let v = value(pane) ?? value(global) else { return nil }
        return v == "on" || v == "all"
    }

    /// The routes for a terminal: outside tmux the OSC alone (a bell there is the dashboard's
    /// own setting); inside tmux BEL always, the OSC unless tmux said passthrough is off.
    public static func routes(insideTmux: Bool, global: String?, pane: String?) -> Routes {
        guard insideTmux else { return Routes(osc: true, bell: false) }
        guard allowed(global: global, pane: pane) == false else { return Routes(osc: true, bell: true) }
        return Routes(osc: false, bell: true, notice: refusedNotice)
    }
}
