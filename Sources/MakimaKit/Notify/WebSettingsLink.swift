import Foundation
import Synchronization

/// "Where do I get a key?": the server's web settings page (`ServerProfile.webSettingsURL`,
/// `<server>/settings`), copied to the clipboard through the terminal (OSC 52) and opened with
/// `xdg-open` when there is one. Both only on a key press (the panes call these).
public enum WebSettingsLink {
    /// The page for the typed server, or nil when the address is not acceptable.
    public static func url(forServer typed: String, allowInsecureHTTP: Bool = false) -> URL? {
        guard let base = try? ServerURL.normalizeTyped(typed, allowInsecureHTTP: allowInsecureHTTP) else { return nil }
        return base.appendingPathComponent("settings")
    }

    /// `ESC ] 52 ; c ; <base64> BEL`: the terminal puts the text on the clipboard (tmux-wrapped
    /// inside tmux, like the notifications). Only http(s) URLs are accepted, at most 2 KiB.
    public static func copyBytes(_ url: URL, insideTmux: Bool) -> [UInt8]? {
        guard url.scheme == "https" || url.scheme == "http" else { return nil }
        let text = url.absoluteString
        guard text.utf8.count <= 2048 else { return nil }
        let seq: [UInt8] =
            [0x1B, UInt8(ascii: "]")] + Array("52;c;\(Data(text.utf8).base64EncodedString())".utf8) + [0x07]
        return insideTmux ? TerminalNotification.tmuxPassthrough(seq) : seq
    }

    private static let opening = Atomic<Bool>(false)

    /// Runs `xdg-open URL` on a thread of its own (never the UI thread); false when there is no
    /// xdg-open, the URL is not http(s), or an earlier one is still running (one at a time,
    /// each given 10 s).
    @discardableResult
    public static func open(_ url: URL, environment: [String: String]) -> Bool {
        guard url.scheme == "https" || url.scheme == "http",
            let opener = NotificationRoute.executable("xdg-open", environment: environment),
            opening.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return false }
        let env = ChildEnvironment.filter(environment)
        let thread = Thread {
            _ = ChildProcess.run(opener, [url.absoluteString], environment: env, timeout: 10)
            opening.store(false, ordering: .releasing)
        }
        thread.name = "makima-open"
        thread.start()
        return true
    }
}
