/// The frame every pane draws into: a grid of cells, later flushed by a `TerminalBackend`.
///
/// Invariants kept by every write: a wide cell is always followed by its continuation cell,
/// a continuation cell always follows a wide cell, and a wide character that does not fit
/// before the right edge is replaced by a space (never half drawn).
public struct CellBuffer: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// The URLs of the links drawn in this frame: a cell whose `style.link` is n shows
    /// `hyperlinks[n - 1]` (the task output view sets them; empty: no hyperlinks).
    public var hyperlinks: [String] = []
    /// Where a mouse click means something in this frame (`mark`), in drawing order.
    public internal(set) var hitRegions: [HitRegion] = []
    /// A frame holds at most this many regions (one per row and item drawn is far fewer).
    static let maxHitRegions = 4_096

    public init(width: Int, height: Int, style: CellStyle = .plain) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank(style), count: self.width * self.height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// Paints `rect` with `character` (a narrow one) in `style`. A nil background in `style`
    /// keeps each cell's background.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: CellStyle) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { put(character, width: 1, x: x, y: y, style: style) }
        }
    }

    /// Writes `text` from (x, y) to the right, never past `maxX` (exclusive) nor the buffer's
    /// edge. Zero-width clusters are skipped. Returns the column after the last cell written.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: CellStyle, maxX: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let limit = min(maxX ?? width, width)
        var col = x
        if CellWidth.isPrintableASCII(text) {
            // The common case, without grapheme breaking: one narrow cell per byte.
            for byte in text.utf8 {
                if col >= limit { break }
                if col >= 0 { put(Character(Unicode.Scalar(byte)), width: 1, x: col, y: y, style: style) }
                col += 1
            }
            return col
        }
        for ch in text {
            if col >= limit { break }
            let w = CellWidth.of(ch)
            if w == 0 { continue }
            if col < 0 {
                col += w
                continue
            }
            if col + w > limit {
                // A wide character that does not fit: pad with a space instead of half of it.
                put(" ", width: 1, x: col, y: y, style: style)
                col += 1
                break
            }
            put(ch, width: w, x: col, y: y, style: style)
            col += w
        }
        return col
    }

    /// Writes each span of a styled line in turn; same clipping as `write(_:x:y:style:maxX:)`.
    @discardableResult
    public mutating func write(_ line: StyledLine, x: Int, y: Int, maxX: Int? = nil) -> Int {
        var col = x
        for span in line.spans {
            col = write(span.text, x: col, y: y, style: span.style, maxX: maxX)
            if col >= min(maxX ?? width, width) { break }
        }
        return col
    }

    /// Places one grapheme of the given width, repairing any wide character it overlaps.
    public mutating func put(_ character: Character, width w: Int, x: Int, y: Int, style: CellStyle) {
        guard x >= 0, y >= 0, y < height, x + w <= width, w == 1 || w == 2 else { return }
        let i = y * width + x
        // Writing over the right half of a wide character: the left half becomes a space.
        if cells[i].isContinuation && x > 0 { cells[i - 1] = Cell(text: " ", width: 1, style: cells[i - 1].style) }
        // Writing over the left half of a wide character: its right half becomes a space.
        let last = x + w - 1
        if cells[y * width + last].width == 2 && last + 1 < width {
            let j = y * width + last + 1
            cells[j] = Cell(text: " ", width: 1, style: cells[j].style)
        }
        var s = style
        if s.bg == nil { s.bg = cells[i].style.bg }
        cells[i] = Cell(text: String(character), width: UInt8(w), style: s)
        if w == 2 {
            var s2 = style
            if s2.bg == nil { s2.bg = cells[i + 1].style.bg }
            cells[i + 1] = Cell(text: "", width: 0, style: s2)
        }
    }

    /// The text of row `y` as the terminal would show it (continuation cells add nothing).
    public func line(_ y: Int) -> String {
        var s = ""
        for x in 0..<width {
            let c = self[x, y]
            if !c.isContinuation { s += c.text }
        }
        return s
    }

    /// Every row as text, trailing spaces kept (so widths can be checked).
    public var lines: [String] { (0..<height).map(line) }

    /// Row `y` with trailing spaces removed: convenient in assertions.
    public func trimmedLine(_ y: Int) -> String {
        var s = line(y)
        while s.last == " " { s.removeLast() }
        return s
    }

    /// Style of the cell at (x, y).
    public func style(atX x: Int, y: Int) -> CellStyle { self[x, y].style }

    /// True when every wide cell has its continuation and no continuation is orphaned.
    public var isWellFormed: Bool {
        for y in 0..<height {
            var x = 0
            while x < width {
                let c = self[x, y]
                if c.isContinuation { return false }
                if c.width == 2 {
                    if x + 1 >= width || !self[x + 1, y].isContinuation { return false }
                    x += 2
                } else {
                    x += 1
                }
            }
        }
        return true
    }
}
