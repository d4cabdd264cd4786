import MakimaKit

/// Turns a task's `TaskOutputBuffer` into rendered lines for the output view (through
/// `OutputDocument`: markdown, logs, cards), converting only what changed since the last
/// call: new lines at the end, lines dropped off the front, and the open (unfinished) line.
/// Older output put in front renders it all again from the new first line (so what is shown
/// is what rendering the whole text at once gives), keeping the view on the line it was on.
/// SPI for the markdown fuzz target (Tests/Fuzz), not public API.
@_spi(Fuzzing) public struct TaskOutputLines {
    private var document: OutputDocument
    /// How many of `buffer.lines` the document holds.
    private var consumed = 0
    private var dropped = 0
    /// `buffer.lines.first` at the last call: if it changed with nothing dropped, lines were put in front.
    private var first: TaskOutputBuffer.Line?
    private let glyphs: Glyphs
    /// The server's clock against ours, for the times the output shows (its status rules).
    let serverClock: ClockOffset
    /// `origin` minus `document.removedFront`: moved when older lines come in front.
    private var base = 0
    /// The number of the first line in a numbering that stays with each line (see
    /// `TaskOutputViewModel.origin`).
    private(set) var origin = 0
    /// What is above the first line, as the buffer said at the last call.
    private(set) var older = OlderOutput.start
    /// How many lines the last call returned.
    private var shownCount = 0
    /// The most lines the output was known to have: rendered again from older output put in
    /// front (a window of it, not yet back to the lines that had left the front), the document
    /// counts fewer for a while, and the header's count must not drop.
    private(set) var lineCount = 0

    @_spi(Fuzzing) public init(glyphs: Glyphs = .unicode, serverClock: ClockOffset = .zero) {
        self.glyphs = glyphs
        self.serverClock = serverClock
        document = OutputDocument(glyphs: glyphs, serverClock: serverClock)
    }

    /// Rendered lines removed off the front (the view's scroll position counts from here).
    package var firstLineNumber: Int { document.removedFront }

    /// The link table of the lines the last call returned: `[n]` in them is `links[n - 1]`,
    /// the unfinished tail's links included (they come from the same rendering).
    private(set) var links: [MarkdownRenderer.Link] = []
    /// The links' addresses, in that order (what `TaskOutputViewModel.links` holds).
    package var linkURLs: [String] { links.map(\.url) }

    /// The lines of `buffer`, the open line's last, as one array (tests and the fuzz target).
    @_spi(Fuzzing) public mutating func lines(of buffer: TaskOutputBuffer) -> [RenderedLine] {
        Array(shownLines(of: buffer))
    }

    /// The lines of `buffer`, the open line's last: the closed ones shared with the document.
    mutating func shownLines(of buffer: TaskOutputBuffer) -> OutputLines {
        let newlyDropped = buffer.droppedLines - dropped
        let prepended = newlyDropped == 0 && consumed > 0 && buffer.lines.first != first
        // Rendered again with the old first line in the unfinished tail: where it is now is
        // not known, so the lines that came in front are counted.
        var countFront = false
        if newlyDropped < 0 || prepended || consumed - newlyDropped > buffer.lines.count {
            // Render again from the start; the line that was first keeps its number. Lines put
            // in front all come from older seqs than it.
            let oldFirstSeq = first?.seq
            let oldOrigin = origin
            document = OutputDocument(glyphs: glyphs, serverClock: serverClock)
            consumed = 0
            feed(buffer)
            let index = dropped + (oldFirstSeq.map { s in buffer.lines.prefix { $0.seq < s }.count } ?? 0)
            // Closed, its place is known; in the unfinished tail it is not (counted below).
            let closedAt = document.firstLine(from: index)
            countFront = closedAt >= document.closed.count
            base = oldOrigin - document.removedFront - (countFront ? 0 : closedAt)
        } else {
            consumed = max(0, consumed - newlyDropped)
            feed(buffer)
        }
        let shown = document.shown(open: buffer.openLine)
        let rendered = shown.lines
        links = shown.links
        if countFront { base -= max(0, rendered.count - shownCount) }
        shownCount = rendered.count
        lineCount = max(lineCount, document.removedFront + rendered.count)
        origin = base + document.removedFront
        older =
            buffer.olderLoading
            ? .loading
            : buffer.olderBefore == nil ? .start : buffer.readingWindowFull ? .windowFull : .available
        return rendered
    }

    private mutating func feed(_ buffer: TaskOutputBuffer) {
        dropped = buffer.droppedLines
        first = buffer.lines.first
        // By index from the first new line: the lines held before are not walked again.
        for i in consumed..<buffer.lines.count { document.append(buffer.lines[i], index: dropped + i) }
        consumed = buffer.lines.count
        document.settle()
        document.drop(before: dropped)
    }
}
