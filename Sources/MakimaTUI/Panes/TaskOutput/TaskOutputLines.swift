import MakimaKit

/// Turns a task's `TaskOutputBuffer` into rendered lines for the output view (through
/// `OutputDocument`: markdown, logs, cards), converting only what changed since the last
/// call: new lines at the end, lines dropped off the front, and the open (unfinished) line.
/// Older output put in front renders it all again, keeping the view on the line it was on.
/// SPI for the markdown fuzz target (Tests/Fuzz), not public API.
@_spi(Fuzzing) public struct TaskOutputLines {
    private var document: OutputDocument
    /// How many of `buffer.lines` the document holds.
    private var consumed = 0
    private var dropped = 0
    /// `buffer.lines.first` at the last call: if it changed with nothing dropped, lines were put in front.
    private var first: TaskOutputBuffer.Line?
    private let glyphs: Glyphs

    @_spi(Fuzzing) public init(glyphs: Glyphs = .unicode) {
        self.glyphs = glyphs
        document = OutputDocument(glyphs: glyphs)
    }

    /// Rendered lines removed off the front (the view's scroll position counts from here).
    package var firstLineNumber: Int { document.removedFront }

    /// The link table: `[n]` in the output is `links[n - 1]`.
    var links: [MarkdownRenderer.Link] { document.links }
    /// The links' addresses, in that order (what `TaskOutputViewModel.links` holds).
    package var linkURLs: [String] { links.map(\.url) }

    /// The lines of `buffer`, the open line's last.
    @_spi(Fuzzing) public mutating func lines(of buffer: TaskOutputBuffer) -> [RenderedLine] {
        let newlyDropped = buffer.droppedLines - dropped
        let prepended = newlyDropped == 0 && consumed > 0 && buffer.lines.first != first
        if newlyDropped < 0 || prepended || consumed - newlyDropped > buffer.lines.count {
            // Render again from the start; the line that was first stays where the view had it.
            let before = document.removedFront
            let oldFirst = dropped
            document = OutputDocument(glyphs: glyphs)
            consumed = 0
            feed(buffer)
            document.setRemovedFront(before - document.firstLine(from: oldFirst))
        } else {
            consumed = max(0, consumed - newlyDropped)
            feed(buffer)
        }
        return document.lines(open: buffer.openLine)
    }

    private mutating func feed(_ buffer: TaskOutputBuffer) {
        dropped = buffer.droppedLines
        first = buffer.lines.first
        for (i, line) in buffer.lines.enumerated().dropFirst(consumed) { document.append(line, index: dropped + i) }
        consumed = buffer.lines.count
        document.settle()
        document.drop(before: dropped)
    }
}
