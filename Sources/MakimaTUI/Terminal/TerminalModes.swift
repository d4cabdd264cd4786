import Glibc

/// The xterm modes the dashboard turns on for its input, and the bytes that turn them off on
/// every way out (quit, signals, crashes: `SignalRelay` writes `allOff` before `endwin`).
///
/// - 2004 bracketed paste: a paste arrives between `ESC [ 200 ~` and `ESC [ 201 ~`, so it is
///   text for a field, never keys.
/// - 1004 focus events: `ESC [ I` when the terminal (or the tmux pane) gains focus, `ESC [ O`
///   when it loses it, so a desktop notification is not sent to someone already looking.
/// - The window title is pushed (`CSI 22 ; 0 t`) before ours is set and popped on the way out.
/// - 1000 button events (presses, releases, the wheel) reported in 1006's SGR form
///   (`ESC [ < b ; x ; y M|m`), which has no column limit and no raw high bytes. No motion
///   (1002/1003): nothing here is dragged, and Shift-drag keeps the terminal's own selection.
enum TerminalModes {
    static let pasteOn = Array("\u{1B}[?2004h\u{1B}[?1004h\u{1B}[22;0t".utf8)
    static let mouseOn = Array("\u{1B}[?1000h\u{1B}[?1006h".utf8)
    static let mouseOff = Array("\u{1B}[?1006l\u{1B}[?1000l".utf8)
    static let allOff = Array("\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?1004l\u{1B}[23;0t".utf8)

    /// Writes to the terminal directly (async-signal-safe: one `write`, no allocation).
    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { b in
            var done = 0
            while done < b.count {
                let n = Glibc.write(STDOUT_FILENO, b.baseAddress! + done, b.count - done)
                if n <= 0 { return }
                done += n
            }
        }
    }
}
