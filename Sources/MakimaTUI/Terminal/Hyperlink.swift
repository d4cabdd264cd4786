import MakimaKit

/// OSC 8 hyperlinks around the cells of a link in the task output (docs/design.md, "Links
/// and OSC 8 hyperlinks").
///
/// ncurses has no hyperlink attribute, so the backend lets ncurses draw the frame, then writes
/// each link's cells again, in the same place and the same attributes, between an OSC 8 open
/// and close (`ESC ] 8 ; id=… ; URL ESC \` … `ESC ] 8 ; ; ESC \`), inside a cursor save and
/// restore and ending in normal attributes, so curses' idea of the cursor and attributes
/// still holds. Writing a cell again
/// with what it already shows changes nothing on screen but the link; when curses later
/// draws other text over those cells, that text carries no link.
///
/// No packaged library writes OSC 8 for a curses program (the open and close are two short
/// strings); the attributes and cursor moves come from ncurses itself (`NcursesCodes`).
enum Hyperlink {
    static let maximumURLBytes = ExternalLink.maximumBytes

    /// The URL as it may travel inside OSC 8, or nil if it may not: what `:open` would open
    /// (`ExternalLink.clean`: http and https only, no control byte, non-ASCII percent-encoded,
    /// length bounded).
    static func clean(_ url: String) -> String? { ExternalLink.clean(url) }

    /// One link's cells on one row.
    struct Run: Equatable {
        var x: Int
        var y: Int
        /// The link's number in the output (the same number on every row it wraps onto).
        var number: UInt32
        var url: String
        var cells: [Cell]
    }

    /// The runs of linked cells in `buffer` whose number has a URL in `buffer.hyperlinks`
    /// that `clean` accepts, row by row.
    static func runs(in buffer: CellBuffer) -> [Run] {
        guard !buffer.hyperlinks.isEmpty else { return [] }
        var urls: [UInt32: String?] = [:]
        var out: [Run] = []
        for y in 0..<buffer.height {
            var current: Run?
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                let n = cell.style.link
                if let run = current, n == run.number {
                    current!.cells.append(cell)
                    continue
                }
                if let run = current { out.append(run) }
                current = nil
                guard n != 0, Int(n) <= buffer.hyperlinks.count else { continue }
                let url: String?
                if let known = urls[n] {
                    url = known
                } else {
                    url = clean(buffer.hyperlinks[Int(n) - 1])
                    urls[n] = url
                }
                if let url { current = Run(x: x, y: y, number: n, url: url, cells: [cell]) }
            }
            if let run = current { out.append(run) }
        }
        return out
    }

    /// How the terminal is told to move, to set attributes, and to save and restore the cursor.
    struct Codes {
        var save: [UInt8]
        var restore: [UInt8]
        var move: (_ x: Int, _ y: Int) -> [UInt8]
        /// The attributes of a cell (from whatever the terminal has now).
        var style: (CellStyle) -> [UInt8]
        /// Back to normal attributes (curses records the change, so this is asked for last).
        var reset: () -> [UInt8]
        /// A cell's text as the terminal gets it (ASCII fallback on a non-UTF-8 locale).
        var text: (Cell) -> String
    }

    /// The bytes that put `runs` on screen as hyperlinks: saved cursor, then per run a move,
    /// the OSC 8 open, its cells with their attributes, the OSC 8 close; restored cursor,
    /// normal attributes (where curses left them). Empty when there are no runs.
    static func bytes(_ runs: [Run], codes: Codes) -> [UInt8] {
        guard !runs.isEmpty else { return [] }
        var out = codes.save
        for run in runs {
            out += codes.move(run.x, run.y)
            out += open(url: run.url, number: run.number)
            var style: CellStyle?
            for cell in run.cells where !cell.isContinuation {
                if cell.style != style {
                    out += codes.style(cell.style)
                    style = cell.style
                }
                out += Array(codes.text(cell).utf8)
            }
            out += close
        }
        return out + codes.restore + codes.reset()
    }

    /// OSC 8 with an `id`, so a terminal treats a link wrapped over rows as one. `url` must
    /// have passed `clean`.
    static func open(url: String, number: UInt32) -> [UInt8] {
        Array("\u{1B}]8;id=makima-\(number);\(url)\u{1B}\\".utf8)
    }

    static let close: [UInt8] = Array("\u{1B}]8;;\u{1B}\\".utf8)
}

/// Whether to write OSC 8 hyperlinks: `MAKIMA_HYPERLINKS=1`/`0` decides; otherwise only
/// where the terminal is known to take them (docs/design.md, "Links and OSC 8 hyperlinks"),
/// never where unknown: a terminal that does not know OSC 8 may show its bytes.
enum HyperlinkSupport {
    static let environmentVariable = "MAKIMA_HYPERLINKS"

    static func detect(environment: [String: String]) -> Bool {
        switch (environment[environmentVariable] ?? "").lowercased() {
        case "1", "on", "yes", "always": return true
        case "0", "off", "no", "never": return false
        default: break
        }
        let term = (environment["TERM"] ?? "").lowercased()
        let program = environment["TERM_PROGRAM"] ?? ""
        if term == "dumb" || term == "linux" || term.isEmpty { return false }
        // A multiplexer stands between us and the terminal: it must keep the links itself.
        if program == "tmux" || !(environment["TMUX"] ?? "").isEmpty {
            let v = version(environment["TERM_PROGRAM_VERSION"])
            return program == "tmux" && !v.isEmpty && !v.lexicographicallyPrecedes([3, 4])
        }
        if term.hasPrefix("screen") { return false }
        if ["iTerm.app", "WezTerm", "vscode", "ghostty"].contains(program) { return true }
        if ["xterm-kitty", "xterm-ghostty", "foot", "foot-extra", "alacritty", "wezterm"].contains(term) {
            return true
        }
        if let vte = Int(environment["VTE_VERSION"] ?? ""), vte >= 5000 { return true }
        if let konsole = Int(environment["KONSOLE_VERSION"] ?? ""), konsole >= 201200 { return true }
        return !(environment["WT_SESSION"] ?? "").isEmpty
    }

    /// "3.4", "3.3a", "next-3.5" → [3, 4], [3, 3], [3, 5]; unknown → [].
    static func version(_ text: String?) -> [Int] {
        guard let text else { return [] }
        let digits = text.drop { !$0.isNumber }
        return digits.split(separator: ".").prefix(2).map { Int($0.prefix { $0.isNumber }) ?? 0 }
    }
}
