/// The terminal's title (OSC 2; in tmux the pane's title, which its window list and status
/// line can show): the count of what needs the operator first, so a narrow tab or a tmux
/// window list still shows it, then the mesh. The title before ours is pushed on start and
/// restored on every way out (`TerminalModes`).
enum TerminalTitle {
    /// Scalars kept at most: a title is a glance, and no terminal shows more.
    static let longest = 80

    static func text(_ masthead: MastheadModel) -> String {
        let mesh = masthead.serverLabel.isEmpty ? "Makima" : "Makima · " + masthead.serverLabel
        return masthead.needsYou > 0 ? "(\(masthead.needsYou)) " + mesh : mesh
    }

    /// `ESC ] 2 ; title BEL`, with every control character (C0, DEL, C1) dropped: whatever the
    /// label holds, nothing but the title reaches the terminal.
    static func sequence(_ title: String) -> [UInt8] {
        var kept = String.UnicodeScalarView()
        for s in title.unicodeScalars.prefix(longest) where !(s.value < 0x20 || (0x7F...0x9F).contains(s.value)) {
            kept.append(s)
        }
        return Array("\u{1B}]2;".utf8) + Array(String(kept).utf8) + [0x07]
    }
}
