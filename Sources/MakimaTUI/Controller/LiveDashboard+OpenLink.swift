import Foundation

extension LiveDashboard {
    /// `:open N`: says the URL in a toast, and hands it to `xdg-open` when that is installed
    /// (only on this explicit command; nothing in the output opens anything by itself). Only
    /// web and mail links are opened: a `file:` or custom-scheme URL from a task stays text.
    func openLink(_ url: String) {
        let shown = String(url.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })
        let lower = shown.lowercased()
        let openable = ["https://", "http://", "mailto:"].contains { lower.hasPrefix($0) }
        guard openable, let opener = Self.executable(named: "xdg-open") else {
            return notifications.toast(
                NoticeLine(shown + (openable ? "  (no xdg-open here: copy it)" : ""), level: .ok))
        }
        let process = Process()
        process.executableURL = opener
        process.arguments = [shown]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            notifications.toast(NoticeLine("opening " + shown, level: .ok))
        } catch {
            notifications.toast(NoticeLine(shown + "  (xdg-open failed)", level: .warn))
        }
    }

    /// `name` on PATH, if it is there and executable.
    static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
