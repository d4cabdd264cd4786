import Foundation

/// "Where do I get a key?": the server's web settings page (`<server>/settings`) for the
/// typed server, opened with `xdg-open` when there is one, only on a key press. Copying it goes through the terminal like any copy (`Clipboard.osc52` in
/// MakimaTUI, written with `DashboardSession.writeTerminalControl`).
public enum WebSettingsLink {
    /// The page for the typed server, or nil when the address is not acceptable.
    public static func url(forServer typed: String, allowInsecureHTTP: Bool = false) -> URL? {
        guard let base = try? ServerURL.normalizeTyped(typed, allowInsecureHTTP: allowInsecureHTTP) else { return nil }
        return base.appendingPathComponent("settings")
    }

    /// Opens the page with `opener` (xdg-open through the program's `ChildLauncher`); false when
    /// there is no xdg-open, the URL is not http(s), or the same page is still being opened.
    @discardableResult
    public static func open(_ url: URL, with opener: LinkOpener) -> Bool {
        opener.open(url.absoluteString) == .opening
    }
}
