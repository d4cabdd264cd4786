import CNcursesShim

/// Which terminfo entry curses starts with. ncurses can only send the colours its entry
/// describes, and the common `*-256color` entries describe 256, so a terminal that announces
/// true colour (`COLORTERM=truecolor` or `24bit`) is driven through the matching `-direct` entry
/// (Debian's ncurses-term installs them) when it is installed; the theme's colours, the makima
/// navy background first, are then drawn exactly instead of as the nearest of 256.
///
/// Inside tmux (`TMUX` set) `tmux-256color`, `screen-256color` and `xterm-256color` all become
/// `tmux-direct`; outside it `xterm-256color` becomes `xterm-direct`. Any other TERM is kept.
public struct TerminfoChoice: Sendable, Equatable {
    /// TERM as the environment gave it.
    public var requested: String
    /// The entry curses is started with (`requested` unless a `-direct` one is used).
    public var used: String

    public var usesDirectEntry: Bool { used != requested }

    public init(requested: String, used: String) {
        self.requested = requested
        self.used = used
    }

    public static func choose(
        environment: [String: String],
        isInstalled: (String) -> Bool = { TerminfoDatabase.contains($0) }
    ) -> TerminfoChoice {
        let term = environment["TERM"] ?? ""
        let keep = TerminfoChoice(requested: term, used: term)
        guard ["truecolor", "24bit"].contains((environment["COLORTERM"] ?? "").lowercased()) else { return keep }
        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        let candidate: String?
        switch term {
        case "tmux-256color", "screen-256color": candidate = insideTmux || term.hasPrefix("tmux") ? "tmux-direct" : nil
        case "xterm-256color": candidate = insideTmux ? "tmux-direct" : "xterm-direct"
        default: candidate = nil
        }
        guard let candidate, isInstalled(candidate) else { return keep }
        return TerminfoChoice(requested: term, used: candidate)
    }

    /// What Settings › About and Home's status rows say about colours, e.g.
    /// `TRUE COLOUR (tmux-direct)` when a `-direct` entry replaced TERM.
    public func describe(_ capability: ColorCapability) -> String {
        let base: String
        switch capability {
        case .direct: base = "TRUE COLOUR"
        case .palette256: base = "256"
        case .palette16: base = "16"
        case .none: base = "NONE"
        }
        return usesDirectEntry ? "\(base) (\(used))" : base
    }
}

/// Whether ncurses has a compiled terminfo entry of that name, asked of ncurses itself
/// (`setupterm`), so the answer follows its own search (`$TERMINFO`, `~/.terminfo`,
/// `$TERMINFO_DIRS`, the system directories, hashed databases) and its own reading of the file.
public enum TerminfoDatabase {
    public static func contains(_ name: String) -> Bool {
        // A name is a file name in those directories: no path of its own.
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { return false }
        return mk_terminfo_has_entry(name) != 0
    }
}
