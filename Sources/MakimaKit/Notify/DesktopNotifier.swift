import Foundation
import Observation

/// Desktop notifications for task completed, task failed and supervisor question, used from one
/// thread (the dashboard's UI thread, or `watch`'s loop).
///
/// The notifier never writes to the terminal itself: `notify` and `flush` return the bytes
/// (`Delivery.terminalBytes`) and the caller writes them where it writes everything else (the
/// dashboard through its terminal backend, between frames). Helper programs (tmux's status
/// line, notify-send) run on the `NotifierWorker`, through the program's `ChildLauncher`.
///
/// Coalescing: at most one desktop notification per `minimumInterval`; what arrives in between
/// waits in one digest and goes out as a summary ("5 tasks failed") when the caller calls
/// `flush` after `Delivery.flushAfter` seconds.
///
/// Observable: the dashboard's Settings pane shows `preferences`, and is rebuilt when they change.
@Observable
public final class DesktopNotifier {
    public struct Delivery: Sendable, Equatable {
        /// Write these to the terminal (empty: nothing to write).
        public var terminalBytes: [UInt8] = []
        /// Call `flush` after this many seconds (nil: nothing waits).
        public var flushAfter: Double?
    }

    public let route: NotificationRoute
    public var preferences: NotificationPreferences
    public static let minimumInterval = 2.0
    let worker: NotifierWorker?
    /// The launcher the worker uses, and the pane tmux is asked about (`askTmuxPassthrough`).
    let launcher: ChildLauncher?
    let pane: String?
    public let childTimeout: Double
    /// What goes to the terminal; inside tmux narrowed by tmux's answer on passthrough
    /// (until it answers, the OSC is sent as before the question was asked).
    @ObservationIgnored public internal(set) var terminalRoutes: TmuxPassthrough.Routes
    @ObservationIgnored private var waiting = NotificationDigest()
    @ObservationIgnored private var lastDelivery = -Double.infinity
    /// Whether the terminal reads UTF-8 (`TerminalLocale`), asked at each delivery: under any
    /// other locale the notification's bytes are ASCII, as everything else written there.
    private let utf8Terminal: @Sendable () -> Bool

    /// `launcher`: the program's one way to start a child (nil: one of the notifier's own, for
    /// a program that starts nothing else).
    public init(
        route: NotificationRoute, preferences: NotificationPreferences, environment: [String: String],
        launcher: ChildLauncher? = nil, childTimeout: Double = 5,
        utf8Terminal: @escaping @Sendable () -> Bool = { TerminalLocale.isUTF8 }
    ) {
        self.utf8Terminal = utf8Terminal
        self.route = route
        self.preferences = preferences
        self.childTimeout = childTimeout
        terminalRoutes = TmuxPassthrough.routes(insideTmux: route.insideTmux, global: nil, pane: nil)
        let pane = environment["TMUX_PANE"].flatMap { $0.isEmpty ? nil : $0 }
        self.pane = pane
        if route.tmux != nil || route.notifySend != nil {
            let launcher = launcher ?? ChildLauncher(environment: environment)
            self.launcher = launcher
            worker = NotifierWorker(launcher: launcher, timeout: childTimeout) { digest in
                Self.commands(for: digest, route: route, pane: pane)
            }
        } else {
            self.launcher = nil
            worker = nil
        }
    }

    /// New notifications (already announced by toast and bell). `now` is any monotonic clock
    /// in seconds, the same for every call.
    public func notify(_ notifications: [MeshNotification], now: Double) -> Delivery {
        guard preferences.desktop else { return Delivery() }
        let wanted = preferences.filter(notifications)
        guard !wanted.isEmpty else { return Delivery() }
        let alreadyWaiting = !waiting.isEmpty
        waiting.merge(NotificationDigest(wanted))
        let wait = lastDelivery + Self.minimumInterval - now
        if wait > 0 { return Delivery(flushAfter: alreadyWaiting ? nil : wait) }
        return flush(now: now)
    }

    /// Sends what waits, if anything.
    public func flush(now: Double) -> Delivery {
        guard !waiting.isEmpty else { return Delivery() }
        let digest = waiting
        waiting = NotificationDigest()
        lastDelivery = now
        worker?.submit(digest)
        guard route.terminal else { return Delivery() }
        return Delivery(
            terminalBytes: TerminalNotification.bytes(
                for: digest.message, insideTmux: route.insideTmux, asciiOnly: !utf8Terminal(),
                passthrough: terminalRoutes.osc))
    }

    /// No helper program is started after this.
    public func stop() { worker?.stop() }

    /// The helper programs for one digest: tmux's status line inside tmux, notify-send when no
    /// terminal route applies.
    static func commands(for digest: NotificationDigest, route: NotificationRoute, pane: String?) -> [(
        String, [String]
    )] {
        let m = digest.message
        var out: [(String, [String])] = []
        if let tmux = route.tmux { out.append((tmux, tmuxArguments(m, pane: pane))) }
        if let send = route.notifySend, !route.terminal { out.append((send, notifySendArguments(m))) }
        return out
    }

    /// `tmux display-message`: the message is a tmux format, so `#` (formats, `#(command)`) and
    /// `%` (strftime) are doubled; `--` ends the options.
    public static func tmuxArguments(_ m: DesktopMessage, pane: String?) -> [String] {
        let text = (m.body.isEmpty ? m.title : "\(m.title): \(m.body)")
            .replacingOccurrences(of: "#", with: "##")
            .replacingOccurrences(of: "%", with: "%%")
        var args = ["display-message", "-d", "5000"]
        if let pane { args += ["-t", pane] }
        return args + ["--", "MAKIMA: " + text]
    }

    /// `notify-send`: notification servers read the body as markup, so `&`, `<`, `>` are escaped.
    public static func notifySendArguments(_ m: DesktopMessage) -> [String] {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        return ["--app-name=makima-tui", "--", escape(m.title), escape(m.body)]
    }
}
