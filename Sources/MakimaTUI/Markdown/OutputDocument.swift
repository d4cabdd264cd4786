import Foundation
import MakimaKit

/// A task's output rendered as it streams in: the assistant's text as markdown, tool output
/// and stderr as logs (SGR colours on the palette), completion gates, questions and status
/// changes as cards.
///
/// Markdown is re-parsed only from the last closed block: each top-level block the parser has
/// closed (a later block started on a finished line after a blank one) is rendered once and kept; only the
/// unfinished tail is parsed again when more text comes. Whatever the chunking, the same text
/// renders to the same lines.
struct OutputDocument {
    let glyphs: Glyphs
    let timeZone: TimeZone
    /// The server's clock against ours: a status rule's time is the event's, read on ours.
    let serverClock: ClockOffset

    /// The rendered lines of everything closed.
    private(set) var closed = LineBlocks()
    /// For each closed line, the first and last buffer line (absolute index, counting lines
    /// dropped off the buffer) its unit was rendered from.
    private var sources: [ClosedRange<Int>] = []
    /// Rendered lines removed off the front so far (their source left the buffer).
    private(set) var removedFront = 0

    private enum Segment {
        case none
        /// Finished markdown lines since the last closed block; `first` is the first one's index.
        /// A block cut at its bound goes on in `joins`: `lines[0]` is then its stand-in.
        case markdown(lines: [String], first: Int, joins: Continuation? = nil)
        case tool(stream: String)
        case gate(lines: [String], first: Int)
    }

    private var segment = Segment.none
    private var renderer: MarkdownRenderer
    /// One SGR state per log stream: stderr colours do not leak into tool output.
    private var builders: [String: StyledTextBuilder] = [:]
    private var emittedAny = false
    /// A gate card came from the text since the last `task.completion_gate` event: the
    /// event repeats it and is not drawn again.
    private var gateFromText = false

    /// What is parsed again as the open tail grows is bounded, whatever has streamed and
    /// however long a block stays open: an open paragraph is cut every
    /// `maximumOpenParagraphLines` lines and an open fenced code block every
    /// `maximumOpenCodeLines`, each going on as the same block (`Continuation`); any other
    /// unit this long (in lines or bytes) is closed even if its last block is not.
    static let maximumOpenParagraphLines = 48
    static let maximumOpenCodeLines = 64
    static let maximumTailLines = 512
    static let maximumTailBytes = 64 * 1024
    /// Past the code bound, the tail is looked at again every this many lines, not on each:
    /// a unit no cut can end (a long list, a fence left open after prose) would otherwise be
    /// parsed twice per line up to `maximumTailLines`, 500 parses of up to 512 lines each, and
    /// a burst of such output into the task view cost three times what Home did. The lines
    /// looked at are counted from where the segment began (a cut, a close, other output),
    /// which no chunking or frame moves, so a cut falls on the same line however the text
    /// arrived: a paragraph or code block streamed alone is cut at its bound, a unit closed
    /// within `boundCheckEvery - 1` lines past it.
    static let boundCheckEvery = 16
    /// The buffer line the markdown segment began on (where `boundCheckEvery` counts from).
    private var segmentStart = 0
    /// Bytes of the markdown segment's lines (newlines counted).
    private var tailBytes = 0
    /// A finished markdown line came since the last `settle`: without one, settling again
    /// would find what the last one did (a frame for the open line alone parses only once).
    private var unsettled = false
    /// A gate longer than this without its closing tag is read as ordinary text.
    static let maximumGateLines = 60

    init(glyphs: Glyphs = .unicode, timeZone: TimeZone = .current, serverClock: ClockOffset = .zero) {
        self.glyphs = glyphs
        self.timeZone = timeZone
        self.serverClock = serverClock
        renderer = MarkdownRenderer(glyphs: glyphs)
    }

    static func isLog(_ stream: String) -> Bool { stream == "tool" || stream == "stderr" }

    /// Adds a finished line (index: its absolute position in the task's output).
    mutating func append(_ line: TaskOutputBuffer.Line, index: Int) {
        switch line.kind {
        case .text(let stream) where Self.isLog(stream):
            var continuing = false
            if case .tool(let s) = segment, s == stream { continuing = true }
            if !continuing {
                closeSegment()
                segment = .tool(stream: stream)
            }
            emit(logLine(line.text, stream: stream, finished: true), source: index...index, continuing: continuing)
        case .text where OutputLimits.isOversized(line.text):
            // Too long or too wide to parse: plain text, a unit of its own.
            closeSegment()
            emit([plainLine(line.text)], source: index...index)
        case .text:
            appendMarkdown(Self.markdownText(line.text), index: index)
        case .status(let status, let reason):
            closeSegment()
            emit(
                [
                    OutputCards.status(
                        status, reason: reason, time: line.time.map(serverClock.local), timeZone: timeZone,
                        glyphs: glyphs)
                ],
                source: index...index)
        case .completionGate(let ready, let summary, let body):
            closeSegment()
            if gateFromText {
                gateFromText = false
                return
            }
            var gate = OutputCards.parseGate(body)
            gate.ready = ready
            if gate.fields.isEmpty, let summary { gate.fields = [("summary", summary)] }
            emit(OutputCards.gate(gate, glyphs: glyphs), source: index...index)
        case .supervisorQuestion(let text, let directiveID):
            closeSegment()
            emit(OutputCards.question(text, directiveID: directiveID, glyphs: glyphs), source: index...index)
        }
    }

    /// Adds a line of the markdown stream: to the open segment (a completion gate written as
    /// text, or markdown), or as the first line of a new one.
    private mutating func appendMarkdown(_ text: String, index: Int) {
        unsettled = true
        if case .gate = segment {
            var (lines, first) = takeSegmentLines()
            lines.append(text)
            if text.contains(OutputCards.gateClose) {
                segment = .gate(lines: lines, first: first)
                closeSegment(upTo: index)
            } else if lines.count > Self.maximumGateLines {
                // No closing tag in sight: it was text that began with the tag, not a gate.
                segment = .markdown(lines: lines, first: first)
                segmentStart = first
                tailBytes = Self.bytes(of: lines)
            } else {
                segment = .gate(lines: lines, first: first)
            }
        } else if case .markdown(_, _, let joins) = segment, !Self.startsGate(text) {
            var (lines, first) = takeSegmentLines()
            lines.append(text)
            tailBytes += text.utf8.count + 1
            segment = .markdown(lines: lines, first: first, joins: joins)
            if tailBytes >= Self.maximumTailBytes || boundIsDue(at: index, lines: lines.count) {
                boundTail(upTo: index)
            }
        } else {
            closeSegment()
            if Self.startsGate(text) {
                segment = .gate(lines: [text], first: index)
                if text.contains(OutputCards.gateClose) { closeSegment(upTo: index) }
            } else {
                segment = .markdown(lines: [text], first: index)
                segmentStart = index
                tailBytes = text.utf8.count + 1
            }
        }
    }

    /// Commits the markdown units that are closed. A unit is a run of top-level blocks up to
    /// one that started on a finished line after a blank line: that block begins the next unit,
    /// and the unit before it is closed. Call after appending.
    ///
    /// The blank line matters: without it a later line can still reach back into the block
    /// before. A delimiter row (`|---|`) turns a paragraph's last line into a table header, a
    /// `===`/`---` underline makes a paragraph a heading, a lazy line continues a paragraph
    /// the parser had seen interrupted. No later line changes a block a blank line ended, and
    /// the parser then starts the next block afresh, so re-parsing from it gives what parsing
    /// everything would. cmark-gfm gives the paragraph it splits off in front of a table no
    /// source lines (0) and the table the paragraph's first line: the two close as one.
    ///
    /// A `#` heading closes, and closes what is before it, blank line or not: it interrupts a
    /// paragraph, is one line, and is no paragraph text a later underline, delimiter row or
    /// lazy line could take (text that puts headings right against paragraphs would otherwise
    /// keep an ever longer tail, parsed again on every chunk).
    ///
    /// Each unit is rendered from a parse of its own lines only (`parseUnit`), streamed or
    /// whole: a link reference definition therefore reaches only the links of its own unit,
    /// and one arriving later never changes what was drawn.
    mutating func settle() {
        guard unsettled else { return }
        unsettled = false
        guard case .markdown(var lines, var first, let joins) = segment, lines.count > 1 else { return }
        let starts = Self.unitStarts(lines)
        guard let last = starts.last else { return }
        segment = .none
        emitUnits(lines, first: first, bounds: starts, joins: joins)
        lines.removeFirst(last - 1)
        first += last - 1
        segment = .markdown(lines: lines, first: first)
        tailBytes = Self.bytes(of: lines)
    }

    /// The tail reached a bound: the units it holds that are closed are committed first (as
    /// they would have been had the text come in smaller chunks, so the cut falls in the same
    /// place however it arrived); the unit left is closed if it alone is over the bound.
    private mutating func boundTail(upTo index: Int) {
        settle()
        guard case .markdown(let lines, let first, let joins) = segment else { return }
        let count = lines.count - (joins == nil ? 0 : 1)
        guard count >= Self.maximumOpenParagraphLines || tailBytes >= Self.maximumTailBytes else { return }
        if let cut = Self.openBlockCut(lines, count: count, bytes: tailBytes) {
            // The block so far is drawn as it stands (a code block without its bottom edge);
            // the lines after this one go on under the stand-in, as the same block.
            segment = .none
            emitUnits(lines, first: first, bounds: [lines.count + 1], joins: joins, openEnd: cut != .paragraph)
            segment = .markdown(lines: [cut.standIn], first: index, joins: cut)
            segmentStart = index
            tailBytes = 0
        } else if count >= Self.maximumTailLines || tailBytes >= Self.maximumTailBytes {
            closeSegment(upTo: index)
        }
    }

    /// Whether line `index` is one the tail's bound is looked at on (`boundCheckEvery`): the
    /// segment holds `lines` (fewer once a frame settled it), and its unit is at the bound at
    /// the soonest when those are.
    private func boundIsDue(at index: Int, lines: Int) -> Bool {
        let since = index - segmentStart + 1
        guard lines >= Self.maximumOpenParagraphLines, since >= Self.maximumOpenParagraphLines else { return false }
        // Every line up to the code bound (a paragraph or a code block streamed alone is cut
        // right at its bound), then every `boundCheckEvery`.
        return since <= Self.maximumOpenCodeLines + 1
            || (since - Self.maximumOpenCodeLines - 1) % Self.boundCheckEvery == 0
    }

    private static func bytes(of lines: [String]) -> Int { lines.reduce(0) { $0 + $1.utf8.count + 1 } }

    /// The markdown or gate lines, taken out of `segment` (left `.none`) so that appending to
    /// them appends in place: a copy per line would make a long tail quadratic.
    private mutating func takeSegmentLines() -> (lines: [String], first: Int) {
        let taken: (lines: [String], first: Int)
        switch segment {
        case .markdown(let lines, let first, _), .gate(let lines, let first): taken = (lines, first)
        case .tool, .none: taken = ([], 0)
        }
        segment = .none
        return taken
    }

    /// Forgets closed lines whose source left the buffer (everything before `firstIndex`).
    mutating func drop(before firstIndex: Int) {
        var n = 0
        while n < sources.count && sources[n].upperBound < firstIndex { n += 1 }
        guard n > 0 else { return }
        // The blank line that separated the first kept unit from a dropped one goes with it.
        while n < closed.count && closed[n] == RenderedLine() { n += 1 }
        closed.removeFirst(n)
        sources.removeFirst(n)
        removedFront += n
    }

    /// Index of the first closed line rendered from buffer line `index` or later.
    func firstLine(from index: Int) -> Int { sources.firstIndex { $0.lowerBound >= index } ?? sources.count }

    /// What the document shows now: its lines and the numbered links among them (`[n]` in the
    /// lines is `links[n - 1]`), the unfinished tail's as well as the closed blocks'. Made by
    /// the one rendering, so what is drawn numbered is what `:open n` and a click find.
    struct Shown {
        var lines: OutputLines
        var links: [MarkdownRenderer.Link]
    }

    /// Everything as shown now: the closed lines, then the unfinished tail with `open` (the
    /// buffer's unfinished last line) as it stands.
    func shown(open: TaskOutputBuffer.Line?) -> Shown {
        var scratch = self
        var tail: [RenderedLine] = []
        if let open, case .text(let stream) = open.kind {
            if Self.isLog(stream) {
                if case .tool(let s) = scratch.segment, s == stream {
                    tail = scratch.logLine(open.text, stream: stream, finished: false)
                } else {
                    scratch.closeSegment()
                    tail = scratch.separator + scratch.logLine(open.text, stream: stream, finished: false)
                }
            } else if OutputLimits.isOversized(open.text) {
                scratch.closeSegment()
                tail = scratch.separator + [plainLine(open.text)]
            } else {
                switch scratch.segment {
                case .markdown, .gate: break
                default:
                    scratch.closeSegment()
                    scratch.segment = .markdown(lines: [], first: 0)
                }
                tail = scratch.tail(open: Self.markdownText(open.text))
            }
        } else {
            tail = scratch.tail(open: nil)
        }
        return Shown(lines: OutputLines(closed: scratch.closed, tail: tail), links: scratch.renderer.links)
    }

    // MARK: Parts

    private var separator: [RenderedLine] { emittedAny ? [RenderedLine()] : [] }

    /// Markdown takes text without SGR (colours are for logs) and tabs at 4-cell stops.
    private static func markdownText(_ text: String) -> String {
        UntrustedText.stripSGR(TabExpansion.expand(text, tabWidth: 4, keepingSGR: true))
    }

    /// A top-level ATX heading (`# …`, up to three spaces in), not a setext one.
    private static func isATXHeading(_ block: MarkdownNode, line: String) -> Bool {
        guard case .heading = block.kind else { return false }
        let indent = line.prefix { $0 == " " }.count
        return indent <= 3 && line.dropFirst(indent).hasPrefix("#")
    }

    /// A line the parser reads as blank (tabs are expanded before this).
    private static func isBlank(_ line: String) -> Bool { line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    /// A gate opens only on a line that starts with the tag (after spaces), wherever the line
    /// falls in the markdown: in a list, a quote, a fence, under a line a delimiter row could
    /// still make a table header. The buffer hands over whole lines, so this reads the same in
    /// any chunking; the markdown before the line closes as if the text ended there. Later in
    /// a line the tag is text.
    private static func startsGate(_ text: String) -> Bool {
        // Most lines hold no `<` at all: they are answered without trimming.
        text.utf8.contains(UInt8(ascii: "<"))
            && text.trimmingCharacters(in: .whitespaces).hasPrefix(OutputCards.gateOpen)
    }

    /// A line the user is still receiving that may become a gate's opening tag.
    private static func mayStartGate(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        return t.hasPrefix("<") && (OutputCards.gateOpen.hasPrefix(t) || t.hasPrefix(OutputCards.gateOpen))
    }

    private mutating func emit(_ lines: [RenderedLine], source: ClosedRange<Int>, continuing: Bool = false) {
        var lines = lines
        if emittedAny && !continuing { lines.insert(RenderedLine(), at: 0) }
        emittedAny = true
        closed.append(contentsOf: lines)
        sources += Array(repeating: source, count: lines.count)
    }

    /// Renders `lines` unit by unit up to the last of `bounds`: each bound (1-based) is the
    /// line after a unit. `first` is the buffer index of `lines[0]`.
    /// With `joins`, `lines[0]` is a cut block's stand-in: the first block goes on from it
    /// (`renderBlocks`). With `openEnd`, the last block is cut open: its bottom edge is not drawn.
    private mutating func emitUnits(
        _ lines: [String], first: Int, bounds: [Int], joins: Continuation? = nil, openEnd: Bool = false
    ) {
        var from = 1
        for (u, next) in bounds.enumerated() {
            let unit = lines[(from - 1)..<(next - 1)]
            let blocks = Self.parseUnit(unit)
            let rendered = renderBlocks(blocks, joins: u == 0 ? joins : nil)
            for (b, (rows, span)) in zip(rendered, Self.sourceLines(of: blocks)).enumerated() {
                var rows = rows
                if openEnd && u == bounds.count - 1 && b == rendered.count - 1 && !rows.isEmpty { rows.removeLast() }
                emit(
                    rows, source: (first + from + span.lowerBound - 2)...(first + from + span.upperBound - 2),
                    continuing: b == 0 && u == 0 && joins != nil)
            }
            from = next
        }
    }

    /// Each block's lines. The first goes on from a cut block when `joins` says so: a code
    /// block keeps the cut one's number, and the stand-in's row (the fence's top edge, the
    /// paragraph's `x`) is not drawn.
    private mutating func renderBlocks(_ blocks: [MarkdownNode], joins: Continuation?) -> [[RenderedLine]] {
        blocks.enumerated().map { i, block in
            guard i == 0, let joins else { return renderer.render(block) }
            if case .code = joins { renderer.continueCodeBlock() }
            return Array(renderer.render(block).dropFirst())
        }
    }

    /// The first lines (1-based) of the units after the first that `lines` holds: each a
    /// top-level block that started after a blank line, following the end of the blocks before.
    private static func unitStarts(_ lines: [String]) -> [Int] {
        let blocks = MarkdownParser.parse(lines.joined(separator: "\n") + "\n").children
        let spans = sourceLines(of: blocks)
        var starts: [Int] = []
        var k = 0
        while true {
            var last = k  // blocks[k...last] close together
            while last < blocks.count && blocks[last].startLine == 0 { last += 1 }
            guard last + 1 < blocks.count else { break }
            let next = blocks[last + 1].startLine
            let start = blocks[last].startLine
            guard next > spans[last].upperBound, next >= 2, next <= lines.count, start >= 1,
                isBlank(lines[next - 2]) || isATXHeading(blocks[last + 1], line: lines[next - 1])
                    || isATXHeading(blocks[last], line: lines[start - 1])
            else {
                break
            }
            starts.append(next)
            k = last + 1
        }
        return starts
    }

    /// The top-level blocks of one unit, parsed alone. A paragraph of link reference
    /// definitions, which the parser takes out of the text, is parsed again as text: it defines
    /// nothing and shows its URL. So whether a definition shares a parse with the link that
    /// names it (everything arrived at once) or not (it came later) changes nothing.
    private static func parseUnit(_ lines: ArraySlice<String>) -> [MarkdownNode] {
        let lines = Array(lines)
        let blocks = MarkdownParser.parse(lines.joined(separator: "\n") + "\n").children
        var covered = Array(repeating: false, count: lines.count)
        for span in sourceLines(of: blocks) {
            for line in span where line <= lines.count { covered[line - 1] = true }
        }
        var escaped = lines
        var changed = false
        for i in lines.indices where !covered[i] && (i == 0 || covered[i - 1] || isBlank(lines[i - 1])) {
            // The first line of a definition the parser dropped starts with its `[`.
            guard let bracket = lines[i].firstIndex(where: { $0 != " " }), lines[i][bracket] == "[" else { continue }
            escaped[i].insert("\\", at: bracket)
            changed = true
        }
        return changed ? MarkdownParser.parse(escaped.joined(separator: "\n") + "\n").children : blocks
    }

    /// The 1-based source lines of each top-level block. cmark-gfm gives the paragraph it splits
    /// off in front of a table no source lines (0): it takes the table's, the lines it was
    /// parsed from, so it closes, and later leaves the buffer, with the table. Whether the
    /// blocks close in `settle` or all at once in `closeSegment`, each gets the same lines.
    private static func sourceLines(of blocks: [MarkdownNode]) -> [ClosedRange<Int>] {
        var spans: [ClosedRange<Int>] = []
        spans.reserveCapacity(blocks.count)
        var next = 1...1
        for block in blocks.reversed() {
            if block.startLine > 0 { next = block.startLine...max(block.startLine, block.endLine) }
            spans.append(next)
        }
        return spans.reversed()
    }

    private mutating func closeSegment(upTo index: Int? = nil) {
        let current = segment
        segment = .none
        switch current {
        case .markdown(let lines, let first, let joins):
            // A cut code block's stand-in alone still closes it: its bottom edge is drawn.
            guard !lines.isEmpty else { return }
            emitUnits(lines, first: first, bounds: Self.unitStarts(lines) + [lines.count + 1], joins: joins)
        case .gate(let lines, let first):
            emit(
                OutputCards.gate(OutputCards.parseGate(lines.joined(separator: "\n")), glyphs: glyphs),
                source: first...(index ?? first + lines.count - 1))
            gateFromText = true
        case .tool, .none:
            break
        }
    }

    /// The unfinished markdown or gate segment, with `open` as its last line. Called on a copy
    /// (`shown`): its renderer numbers the tail's links after the closed blocks' ones.
    private mutating func tail(open: String?) -> [RenderedLine] {
        switch segment {
        case .markdown(let lines, _, let joins):
            var out: [RenderedLine] = []
            var emitted = emittedAny
            var source = lines
            var pendingGate: String?
            if let open {
                if Self.mayStartGate(open) { pendingGate = open } else { source.append(open) }
            }
            if !source.isEmpty {
                for (i, rows) in renderBlocks(Self.parseUnit(source[...]), joins: joins).enumerated() {
                    if emitted && !(i == 0 && joins != nil) { out.append(RenderedLine()) }
                    out += rows
                    emitted = true
                }
            }
            if let pendingGate {
                if emitted { out.append(RenderedLine()) }
                out += OutputCards.gate(OutputCards.parseGate(pendingGate), glyphs: glyphs)
            }
            return out
        case .gate(let lines, _):
            let all = lines + (open.map { [$0] } ?? [])
            return separator + OutputCards.gate(OutputCards.parseGate(all.joined(separator: "\n")), glyphs: glyphs)
        case .tool, .none:
            return []
        }
    }

    /// One line of tool output or stderr: SGR colours through the stream's state, tabs at
    /// 8-cell stops, behind a gutter that sets the block apart (in the error colour for stderr).
    /// A line over `OutputLimits.maximumLineBytes` is drawn cut, with a marker.
    private mutating func logLine(_ text: String, stream: String, finished: Bool) -> [RenderedLine] {
        let base: CellStyle = stream == "stderr" ? CellStyle(fg: .danger) : CellStyle(fg: .foregroundMuted)
        var builder = builders[stream] ?? StyledTextBuilder(base: base)
        let (shown, omitted) = OutputLimits.cut(text)
        builder.append(TabExpansion.expand(String(shown), tabWidth: 8, keepingSGR: true) + (finished ? "\n" : ""))
        var content = (finished ? builder.takeLines().first : builder.current) ?? StyledLine()
        builders[stream] = builder
        let gutter = StyledLine(
            (glyphs.isUnicode ? "▏" : "|") + " ", CellStyle(fg: stream == "stderr" ? .danger : .borderMuted))
        guard omitted > 0 else { return [RenderedLine(content, prefix: gutter, hanging: gutter, wrap: .characters)] }
        content.append(" " + OutputLimits.marker(omittedBytes: omitted, glyphs: glyphs), MarkdownStyle.muted)
        var line = RenderedLine(content, prefix: gutter, hanging: gutter, wrap: .characters)
        line.copyText = UntrustedText.stripSGR(OutputLimits.copyText(text))
        return [line]
    }

    /// A markdown line too long or too wide to parse (`OutputLimits`), as plain text: cut
    /// with a marker when too long.
    private func plainLine(_ text: String) -> RenderedLine {
        let (shown, omitted) = OutputLimits.cut(text)
        var line = RenderedLine(StyledLine(Self.markdownText(String(shown)), MarkdownStyle.body), wrap: .characters)
        guard omitted > 0 else { return line }
        line.content.append(" " + OutputLimits.marker(omittedBytes: omitted, glyphs: glyphs), MarkdownStyle.muted)
        line.copyText = Self.markdownText(OutputLimits.copyText(text))
        return line
    }
}
