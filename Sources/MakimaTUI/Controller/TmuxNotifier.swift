import Foundation

/// Inside tmux, shows a notification in the tmux status line too (the pane may not be in
/// view). tmux is run directly with its arguments (no shell); the text is folded onto one
/// line and its `#` doubled so tmux's format expansion (`#(command)`!) cannot run anything.
struct TmuxNotifier: Sendable {
    let pane: String?

    /// nil outside tmux.
    init?(environment: [String: String]) {
        guard let tmux = environment["TMUX"], !tmux.isEmpty else { return nil }
        pane = environment["TMUX_PANE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// tmux's arguments for `text` (tested: nothing in the text can become an option or a format).
    func arguments(for text: String) -> [String] {
        let safe = oneLine(text).replacingOccurrences(of: "#", with: "##")
        let clipped = safe.count > 200 ? String(safe.prefix(200)) + "…" : safe
        var args = ["display-message", "-d", "5000"]
        if let pane { args += ["-t", pane] }
        return args + ["--", "MAKIMA: " + clipped]
    }

    /// Runs tmux on a thread of its own (launching and reaping never block the UI thread).
    func notify(_ text: String) {
        let args = arguments(for: text)
        Thread.detachNewThread {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["tmux"] + args
            p.standardInput = FileHandle.nullDevice
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            do {
                try p.run()
                p.waitUntilExit()
            } catch {
                // No tmux binary: the toast and the bell still told the operator.
            }
        }
    }
}
