import MakimaKit
import Observation

/// What the dashboard shows that no MakimaKit store holds: the masthead (server label,
/// connection pill, clock), the banner under NAV//, the toast above the footer, the theme on
/// screen, Home's notice and ACTIVITY// history, and the answer of the last `:grep`.
///
/// Observed like the stores. The event loop draws each frame inside observation tracking
/// (`EventLoop.draw`), so a change to what the last frame showed asks for the next one; Home's
/// and Grep's models read their parts in their builds (`PaneBindings`), so they are rebuilt
/// when those change. Nothing here asks for a frame by hand. UI thread only (not `Sendable`).
@Observable
public final class ChromeStore {
    public var masthead: MastheadModel
    /// A line under NAV// on every pane until cleared (e.g. the server refused the key).
    public var banner: NoticeLine?
    /// The line above the footer (nil hides it); `NotificationController` times it out.
    public var toast: NoticeLine?
    /// The theme on screen (Settings names it, Home's SYSTEM// card has a row for it).
    public var themeName: String
    /// The theme row's level: a theme that could not be loaded as asked warns until another is.
    public var themeLevel: StatusRow.Level = .ok
    /// The shown profile's own accent (`ProfileAccent`), nil when it takes the theme's.
    public var accent: String?
    /// A line under Home's tagline (how to configure a server, signed out).
    public var homeNotice: NoticeLine?
    /// What the cache recorded per minute (Home's ACTIVITY// card); nil: not read yet.
    public var activity: ActivityHistory?
    /// The answer of the last `:grep` (the Grep pane builds its rows from it and the stores).
    public var grep: GrepAnswer?

    public init(masthead: MastheadModel, themeName: String = ThemeSelection.defaultName) {
        self.masthead = masthead
        self.themeName = themeName
    }

    /// Home's SYSTEM// theme row.
    public var themeRow: StatusRow {
        StatusRow("Theme", themeName.uppercased() + (accent.map { " · ACCENT " + $0.uppercased() } ?? ""), themeLevel)
    }

    /// Writes `value` only when it differs: a write of the same value would draw a frame.
    public func set<T: Equatable>(_ path: ReferenceWritableKeyPath<ChromeStore, T>, _ value: T) {
        if self[keyPath: path] != value { self[keyPath: path] = value }
    }
}

/// What a `:grep` search found in the cache (or why it could not search).
public struct GrepAnswer: Equatable, Sendable {
    public var pattern: String
    public var hits: [OutputSearchHit]
    public var failure: String?
}

/// Home's parts kept in the chrome store, read inside Home's build (so they are observed).
struct HomeChrome: Equatable {
    var notice: NoticeLine?
    var activity: ActivityHistory?
    var themeRow: StatusRow

    init(_ chrome: ChromeStore) {
        notice = chrome.homeNotice
        activity = chrome.activity
        themeRow = chrome.themeRow
    }
}

extension HomeViewModel {
    mutating func adopt(_ chrome: HomeChrome) {
        notice = chrome.notice
        activity = chrome.activity
        setStatusRow(chrome.themeRow)
    }
}
