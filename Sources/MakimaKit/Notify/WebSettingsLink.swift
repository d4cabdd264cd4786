import Foundation
import Synchronization

/// "Where do I get a key?": the server's web settings page (`ServerProfile.webSettingsURL`,
/// `<server>/settings`) for the typed server, opened with `xdg-open` when there is one, only on
/// a key press. Copying it goes through the terminal like any copy (`Clipboard.osc52` in
/// MakimaTUI, written with `DashboardSession.writeTerminalControl`).
public enum WebSettingsLink {
    /// The page for the typed server, or nil when the address is not acceptable.
    public static func url(forServer typed: String, allowInsecureHTTP: Bool = false) -> URL? {
        guard let base = try? ServerURL.normalizeTyped(typed, allowInsecureHTTP: allowInsecureHTTP) else { return nil }
        return base.appendingPathComponent("settings")
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
