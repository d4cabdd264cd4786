/// The bytes that ask a terminal for a desktop notification. Written by hand: these are two
/// short escape sequences (no packaged library emits them), and terminfo has no entry for them.
///
/// - OSC 777 (`ESC ] 777 ; notify ; title ; body BEL`): rxvt-unicode, foot, WezTerm, VTE-based
///   terminals (GNOME Terminal, Tilix), Ghostty, Konsole.
/// - OSC 9 (`ESC ] 9 ; text BEL`): iTerm2, Windows Terminal, kitty, WezTerm, Ghostty.
///
/// Both are sent: a terminal ignores the one it does not know. Inside tmux both are wrapped in
/// tmux's passthrough (`ESC P tmux; … ESC \`, every ESC inside doubled), which tmux forwards to
/// the outer terminal only with `set -g allow-passthrough on`; one BEL follows them there.
///
/// Under a locale that is not UTF-8 the text is made ASCII (`AsciiFallback`), as everything
/// else the client writes to that terminal: on an 8-bit terminal the UTF-8 bytes of `Ĝ` (C4 9C)
/// and `ě` (C4 9B) are ST, which ends the OSC early, and CSI, which starts a sequence of the
/// server's choosing.
public enum TerminalNotification {
    static let esc: UInt8 = 0x1B
    static let bel: UInt8 = 0x07

    /// `ESC ] 777 ; notify ; title ; body BEL`.
    public static func osc777(_ m: DesktopMessage) -> [UInt8] {
        [esc, UInt8(ascii: "]")] + Array("777;notify;\(m.title);\(m.body)".utf8) + [bel]
    }

    /// `ESC ] 9 ; title: body BEL`. The text never starts with a digit and `;` (ConEmu reads
    /// `9;N;…` as one of its own commands), as titles are words.
    public static func osc9(_ m: DesktopMessage) -> [UInt8] {
        let text = m.body.isEmpty ? m.title : "\(m.title): \(m.body)"
        let safe = text.first?.isNumber == true ? "Makima: " + text : text
        return [esc, UInt8(ascii: "]")] + Array("9;\(safe)".utf8) + [bel]
    }

    /// `ESC P tmux; <sequence with each ESC doubled> ESC \`.
    public static func tmuxPassthrough(_ sequence: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [esc, UInt8(ascii: "P")] + Array("tmux;".utf8)
        for b in sequence {
            if b == esc { out.append(esc) }
            out.append(b)
        }
        return out + [esc, UInt8(ascii: "\\")]
    }

    /// Both notifications, wrapped for tmux when `insideTmux`; ASCII only when `asciiOnly`.
    /// Inside tmux one BEL follows, outside any sequence, so tmux flags the window for an
    /// operator looking at another one; `passthrough` false (tmux would drop the wrapped
    /// sequences, `TmuxPassthrough`) leaves the BEL alone.
    public static func bytes(
        for m: DesktopMessage, insideTmux: Bool, asciiOnly: Bool = false, passthrough: Bool = true
    ) -> [UInt8] {
        let shown = asciiOnly ? m.asciiOnly : m
        let sequences = [osc777(shown), osc9(shown)]
        guard insideTmux else { return sequences.flatMap { $0 } }
        return (passthrough ? sequences.flatMap(tmuxPassthrough) : []) + [bel]
    }
}
