import Foundation
import MakimaKit

/// What the Settings pane shows (ABOUT and the live counters). The key is only ever its
/// masked form.
public struct SettingsFacts: Equatable, Sendable {
    public var server: String
    public var maskedKey: String
    public var keySource: String
    public var cachePath: String
    public var version: String
    public var connection: String
    public var counters: StreamCounters
    public var connectionsOpened: Int
    /// The server's clock against ours (a row only when it is off by more than
    /// `ClockOffset.noticeable`).
    public var serverClock = ClockOffset.zero
    /// Set when signing in is available here: the ACTIONS rows are shown.
    public var actions = false
    public var theme = ""
    public var notifications = NotificationPreferences()
    /// Whether the mouse is on (Settings › mouse).
    public var mouse = true
    public var configPath = ""
    /// The cache file with its WAL, in bytes (nil: no cache).
    public var cacheBytes: Int?
    public var terminal = ""
    public var colorMode = ""
    /// The last action's progress or outcome, shown on its row.
    public var actionStatus: [String: String] = [:]
    /// Settings › PROFILES: every stored profile, and the one on screen.
    public var profiles: [MeshProfile] = []
    public var shownProfile: String?

    public init(
        server: String, maskedKey: String, keySource: String, cachePath: String, version: String,
        connection: String, counters: StreamCounters = StreamCounters(), connectionsOpened: Int = 0
    ) {
        self.server = server
        self.maskedKey = maskedKey
        self.keySource = keySource
        self.cachePath = cachePath
        self.version = version
        self.connection = connection
        self.counters = counters
        self.connectionsOpened = connectionsOpened
    }

    /// Reconnects: connections after the first.
    public var reconnects: Int { max(0, connectionsOpened - 1) }

    /// Rows Enter acts on (`SettingsAction`), then the facts.
    var actionRows: [(id: String, label: String, value: String)] {
        guard actions else { return [] }
        func status(_ a: SettingsAction, _ otherwise: String) -> String { actionStatus[a.rowID] ?? otherwise }
        var rows: [(id: String, label: String, value: String)] = [
            (SettingsAction.editServer.rowID, "› server", status(.editServer, server + " · Enter: edit or switch")),
            (SettingsAction.revalidate.rowID, "› check key", status(.revalidate, "Enter: ask the server")),
            (
                SettingsAction.rotateKey.rowID, "› rotate key",
                status(.rotateKey, "Enter: a new key, the old one revoked")
            ),
            (SettingsAction.signOut.rowID, "› sign out", status(.signOut, "Enter twice: remove the stored key")),
            (SettingsAction.nextTheme.rowID, "› theme", status(.nextTheme, theme + " · Enter: next theme")),
            (
                SettingsAction.toggleMouse.rowID, "› mouse",
                status(.toggleMouse, mouse ? "on · Enter: off (the terminal's own selection)" : "off · Enter: on")
            ),
        ]
        for f in NotificationPreferences.fields {
            rows.append(
                ("notify." + f.key, "› notify: " + f.label.lowercased(), notifications[keyPath: f.path] ? "on" : "off"))
        }
        return rows
    }

    /// PROFILES: name, server, whether it is on screen and whether its key is stored; Enter
    /// on another one switches to it.
    var profileRows: [(id: String, label: String, value: String)] {
        profiles.map { p in
            let shown = p.name == shownProfile
            let key = p.keyStored ? "key stored" : "no key stored"
            let enter = shown ? "active" : (p.keyStored ? "Enter: switch" : "makima-tui login --name \(p.name)")
            return (
                SettingsAction.switchProfile(p.name).rowID, "› profile " + p.name, "\(p.server) · \(key) · \(enter)"
            )
        }
    }

    public var model: ListPaneViewModel {
        var about: [(String, String)] = []
        if actions {
            about = [
                ("config", configPath),
                ("cache size", cacheBytes.map(Self.bytes) ?? "none"),
                ("terminal", terminal),
                ("colour mode", colorMode),
            ]
        }
        let rows: [(String, String)] =
            [
                ("server", server),
                ("api key", "\(maskedKey) (\(keySource))"),
                ("cache", cachePath),
                ("version", version),
                ("connection", connection),
            ] + (serverClock.isNoticeable ? [("server clock", serverClock.phrase)] : []) + [
                ("events applied", String(counters.eventsApplied)),
                ("duplicates dropped", String(counters.duplicatesDropped)),
                ("reconnects", String(reconnects)),
                ("resyncs", String(counters.resyncs)),
                ("hole fills", String(counters.holeFills)),
                ("events lost", String(counters.eventsLost)),
                ("malformed frames skipped", String(counters.malformedSkipped)),
            ] + about
        let actionLines = (actionRows + (actions ? profileRows : [])).map { id, label, value in
            var r = RowLine()
            r.column(label.uppercased(), 26, CellStyle(fg: .accent))
            r.column(value, nil, CellStyle(fg: .foreground))
            return ListRow(id: id, line: r.line)
        }
        let lines = rows.map { label, value in
            var r = RowLine()
            r.column(label.uppercased(), 26, CellStyle(fg: .foregroundMuted))
            r.column(value, nil, CellStyle(fg: .foreground))
            return ListRow(id: label, line: r.line)
        }
        return ListPaneViewModel(
            rows: actionLines + lines, emptyMessage: "",
            detail: actions
                ? (profiles.isEmpty ? "ACTIONS" : "ACTIONS · PROFILES") + " · ABOUT · COUNTERS" : "ABOUT · COUNTERS")
    }

    static func bytes(_ n: Int) -> String {
        if n < 1024 { return "\(n) B" }
        if n < 1024 * 1024 { return "\(n / 1024) KiB" }
        return String(format: "%.1f MiB", Double(n) / 1_048_576)
    }
}
