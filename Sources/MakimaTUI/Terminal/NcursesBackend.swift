import CNcursesShim
import Glibc
import MakimaKit

/// Flushes cell buffers to the terminal through ncurses' wide-character API: one `cchar_t`
/// per drawn cell (`setcchar` with an extended colour pair through the opts pointer),
/// `mvwadd_wch`, then `wnoutrefresh` + `doupdate`, which send only what changed on screen.
/// Cells equal to the previous frame are not even handed to ncurses.
///
/// Per-cell work is kept to a comparison and a table look-up: a style's attributes and
/// colour pair are resolved once per palette (`resolved`), and a run of cells in the same
/// style reuses the last answer without hashing; single-scalar text (nearly every cell)
/// skips the scalar loop.
@MainActor
package final class NcursesBackend: @MainActor TerminalBackend {
    private var palette: ResolvedPalette
    private let utf8: Bool
    private var pairs: [PairKey: Int32] = [:]
    private var nextPair: Int32 = 1
    private let maxPairs: Int32
    private var previous: CellBuffer?
    /// What each style seen so far becomes for ncurses under `palette` (emptied with it).
    private var resolved: [CellStyle: Resolved] = [:]

    private struct Resolved {
        var attrs: attr_t
        var pair: Int32
        /// The background's colour number (-1: the terminal's default).
        var bg: Int32
        /// Neither reverse nor underline: on a blank cell the foreground does not show.
        var foregroundHiddenOnBlank: Bool
    }
    /// The background for cells whose style has none.
    private let baseBackground: ColorRole = .background
    /// How OSC 8 hyperlinks are written after a frame (`Hyperlink`); nil: not at all.
    private var linkCodes: Hyperlink.Codes?
    /// The link runs on screen now, written after the last frame.
    private var shownLinks: [Hyperlink.Run] = []

    private struct PairKey: Hashable {
        var fg: Int32
        var bg: Int32
    }

    package init(palette: ResolvedPalette, utf8: Bool) {
        self.palette = palette
        self.utf8 = utf8
        maxPairs = mk_color_pairs()
        for r in palette.redefinitions {
            init_extended_color(Int32(r.index), Int32(r.red), Int32(r.green), Int32(r.blue))
        }
    }

    /// Another theme, live (Settings): its palette entries are redefined and the whole screen
    /// is drawn again. Colour pairs are keyed by colour numbers, so they stay valid.
    func setPalette(_ newPalette: ResolvedPalette) {
        palette = newPalette
        resolved = [:]
        for r in newPalette.redefinitions {
            init_extended_color(Int32(r.index), Int32(r.red), Int32(r.green), Int32(r.blue))
        }
        invalidate()
    }

    package var size: (width: Int, height: Int) { (Int(mk_cols()), Int(mk_lines())) }

    package func invalidate() {
        previous = nil
        clearok(mk_stdscr(), true)
    }

    /// `doupdate` has already written and flushed curses' own output (it flushes at the end of
    /// every frame), so these bytes follow a whole frame on the same descriptor.
    package func writeControl(_ bytes: [UInt8]) { TerminalGate.terminal.hold { writeBytes(bytes) } }

    private func writeBytes(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }  // the terminal is gone or full: a notification is not worth blocking for
            offset += n
        }
    }

    package func flush(_ buffer: CellBuffer) { TerminalGate.terminal.hold { draw(buffer) } }

    private func draw(_ buffer: CellBuffer) {
        let win = mk_stdscr()
        let last = previous.flatMap { $0.width == buffer.width && $0.height == buffer.height ? $0 : nil }
        if last == nil { werase(win) }
        var cch = cchar_t()
        var wide: [wchar_t] = [0, 0, 0, 0, 0]
        let cells = buffer.cells
        let lastCells = last?.cells
        let width = buffer.width
        // The style of the cell before and what it resolved to: runs of one style are the rule.
        var runStyle: CellStyle?
        var run = Resolved(attrs: 0, pair: 0, bg: -1, foregroundHiddenOnBlank: false)
        for y in 0..<buffer.height {
            let row = y * width
            for x in 0..<width {
                let i = row + x
                let cell = cells[i]
                if cell.isContinuation { continue }
                if let lastCells, lastCells[i] == cell, cell.width == 1 || lastCells[i + 1] == cells[i + 1] { continue }
                if runStyle != cell.style {
                    let own = resolve(cell.style)
                    // A blank on the run's background looks the same whatever its foreground:
                    // keeping the run's pair spares ncurses a colour change (and the terminal
                    // its bytes) at every dot of a texture or gap between words.
                    if !(cell.text == " " && own.foregroundHiddenOnBlank && run.foregroundHiddenOnBlank
                        && own.bg == run.bg)
                    {
                        run = own
                        runStyle = cell.style
                    }
                }
                setText(cell.text, into: &wide)
                if mk_setcchar(&cch, wide, run.attrs, run.pair) == ERR {
                    wide[0] = wchar_t(UInt8(ascii: "?"))
                    wide[1] = 0
                    _ = mk_setcchar(&cch, wide, run.attrs, run.pair)
                }
                mvwadd_wch(win, Int32(y), Int32(x), &cch)
                if cell.width == 2 {
                    // If the C library thinks this character is narrower than our table does,
                    // fill the second cell so curses and the buffer agree on what is there.
                    if getcurx(win) == Int32(x + 1) || !utf8 {
                        wide[0] = wchar_t(UInt8(ascii: utf8 ? " " : "?"))
                        wide[1] = 0
                        _ = mk_setcchar(&cch, wide, run.attrs, run.pair)
                        mvwadd_wch(win, Int32(y), Int32(x + 1), &cch)
                    }
                }
            }
        }
        wnoutrefresh(win)
        doupdate()
        previous = buffer
        if linkCodes != nil { writeHyperlinks(buffer, redrawn: last == nil) }
    }

    /// Turns OSC 8 hyperlinks on (when the terminal takes them, `HyperlinkSupport`). Off when
    /// the terminal description lacks a cursor address or cursor save and restore.
    func enableHyperlinks() {
        guard
            let codes = Self.hyperlinkCodes(
                utf8: utf8,
                resolve: { [unowned self] in
                    let r = self.resolve($0)
                    return (r.attrs, r.pair)
                })
        else {
            return
        }
        linkCodes = codes
        // Curses must not shift cells sideways (insert/delete character): a shifted linked
        // cell would keep its link where the frame has other text.
        idcok(mk_stdscr(), false)
    }

    /// Links are written again only when they changed or the screen was redrawn: cells curses
    /// did not touch keep theirs.
    private func writeHyperlinks(_ buffer: CellBuffer, redrawn: Bool) {
        guard let codes = linkCodes else { return }
        let runs = Hyperlink.runs(in: buffer)
        defer { shownLinks = runs }
        guard redrawn || runs != shownLinks else { return }
        writeBytes(Hyperlink.bytes(runs, codes: codes))
    }

    /// The terminal's own strings (terminfo through ncurses) for what `Hyperlink.bytes` writes
    /// around the links; nil if it lacks `cup`, `sc` or `rc`.
    static func hyperlinkCodes(utf8: Bool, resolve: @escaping (CellStyle) -> (attr_t, Int32)) -> Hyperlink.Codes? {
        guard let sc = mk_cap_string("sc"), let rc = mk_cap_string("rc"), mk_cup_string(0, 0) != nil else {
            return nil
        }
        let save = TerminfoOutput.collect { tputs(sc, 1, TerminfoOutput.putc) }
        let restore = TerminfoOutput.collect { tputs(rc, 1, TerminfoOutput.putc) }
        return Hyperlink.Codes(
            save: save, restore: restore,
            move: { x, y in
                TerminfoOutput.collect {
                    if let s = mk_cup_string(Int32(y), Int32(x)) { tputs(s, 1, TerminfoOutput.putc) }
                }
            },
            style: { style in
                var (attrs, pair) = resolve(style)
                return TerminfoOutput.collect { vid_puts(attrs, 0, &pair, TerminfoOutput.putc) }
            },
            reset: {
                var pair: Int32 = 0
                return TerminfoOutput.collect { vid_puts(mk_a_normal(), 0, &pair, TerminfoOutput.putc) }
            },
            text: { cell in utf8 ? cell.text : AsciiFallback.transliterate(cell.text) })
    }

    /// The cell's text as the NUL-terminated wide string `setcchar` takes (at most 4 scalars;
    /// `wide` has room for 5). One ASCII byte, the common case, takes no loop.
    private func setText(_ text: String, into wide: inout [wchar_t]) {
        let utf8View = text.utf8
        if utf8View.count == 1, let byte = utf8View.first, byte < 0x80 {
            wide[0] = wchar_t(byte)
            wide[1] = 0
            return
        }
        let shown = utf8 ? text : AsciiFallback.transliterate(text)
        var n = 0
        for s in shown.unicodeScalars where n < 4 {
            wide[n] = wchar_t(bitPattern: s.value)
            n += 1
        }
        wide[n] = 0
    }

    private func resolve(_ linked: CellStyle) -> Resolved {
        // A link's number does not change how a cell looks (and would make the cache endless).
        var style = linked
        style.link = 0
        if let known = resolved[style] { return known }
        var s = style
        if s.bg == nil { s.bg = baseBackground }
        let r = palette.resolve(s)
        var attrs = mk_a_normal()
        if r.attributes.contains(.bold) { attrs |= mk_a_bold() }
        if r.attributes.contains(.dim) { attrs |= mk_a_dim() }
        if r.attributes.contains(.reverse) { attrs |= mk_a_reverse() }
        if r.attributes.contains(.underline) { attrs |= mk_a_underline() }
        if r.attributes.contains(.italic) { attrs |= mk_a_italic() }
        let bg = Int32(r.bg ?? -1)
        let pair = palette.capability == .none ? 0 : pair(fg: Int32(r.fg ?? -1), bg: bg)
        let answer = Resolved(
            attrs: attrs, pair: pair, bg: bg,
            foregroundHiddenOnBlank: r.attributes.isDisjoint(with: [.reverse, .underline]))
        // Bounded by the number of distinct styles (13 roles × 14 backgrounds × 32 attribute sets).
        resolved[style] = answer
        return answer
    }

    private func pair(fg: Int32, bg: Int32) -> Int32 {
        let key = PairKey(fg: fg, bg: bg)
        if let p = pairs[key] { return p }
        guard nextPair < maxPairs else { return 0 }
        let p = nextPair
        init_extended_pair(p, fg, bg)
        nextPair += 1
        pairs[key] = p
        return p
    }
}

/// What ncurses would send to the terminal, collected instead: its output callback is a C
/// function with no context, so the bytes gather in one buffer (UI thread only, like curses).
@MainActor
enum TerminfoOutput {
    nonisolated(unsafe) private static var bytes: [UInt8] = []

    static let putc: @convention(c) (Int32) -> Int32 = { c in
        TerminfoOutput.bytes.append(UInt8(truncatingIfNeeded: c))
        return c
    }

    static func collect(_ body: () -> Void) -> [UInt8] {
        bytes = []
        body()
        defer { bytes = [] }
        return bytes
    }
}
