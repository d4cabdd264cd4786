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

    /// The rendered lines of everything closed.
    private(set) var closed: [RenderedLine] = []
    /// For each closed line, the first and last buffer line (absolute index, counting lines
    /// dropped off the buffer) its unit was rendered from.
    private var sources: [ClosedRange<Int>] = []
    /// Rendered lines removed off the front so far (their source left the buffer).
    private(set) var removedFront = 0

    private enum Segment {
        case none
        /// Finished markdown lines since the last closed block; `first` is the first one's index.
        case markdown(lines: [String], first: Int)
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

    /// A markdown tail this long is closed even if its last block is not (an unterminated code
    /// fence), so re-parsing stays bounded.
    static let maximumTailLines = 4000
    /// A gate longer than this without its closing tag is read as ordinary text.
    static let maximumGateLines = 60

    init(glyphs: Glyphs = .unicode, timeZone: TimeZone = .current) {
        self.glyphs = glyphs
        self.timeZone = timeZone
        renderer = MarkdownRenderer(glyphs: glyphs)
    }

    /// The numbered links of the closed blocks (`[n]` in the text, `:open n` once wired); a
    /// link in the unfinished tail gets its number here when its block closes.
    var links: [MarkdownRenderer.Link] { renderer.links }

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
        case .text:
            let text = Self.markdownText(line.text)
            if case .gate = segment {
                var (lines, first) = takeSegmentLines()
                lines.append(text)
                if text.contains(OutputCards.gateClose) {
                    segment = .gate(lines: lines, first: first)
                    closeSegment(upTo: index)
                } else if lines.count > Self.maximumGateLines {
                    // No closing tag in sight: it was text that began with the tag, not a gate.
                    segment = .markdown(lines: lines, first: first)
                } else {
                    segment = .gate(lines: lines, first: first)
                }
            } else if case .markdown = segment, !Self.startsGate(text) {
                var (lines, first) = takeSegmentLines()
                lines.append(text)
                segment = .markdown(lines: lines, first: first)
                if lines.count >= Self.maximumTailLines { closeSegment(upTo: index) }
            } else {
                closeSegment()
                if Self.startsGate(text) {
                    segment = .gate(lines: [text], first: index)
                    if text.contains(OutputCards.gateClose) { closeSegment(upTo: index) }
                } else {
                    segment = .markdown(lines: [text], first: index)
                }
            }
        case .status(let status, let reason):
            closeSegment()
            emit(
                [OutputCards.status(status, reason: reason, time: line.time, timeZone: timeZone, glyphs: glyphs)],
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

    /// Commits the markdown blocks that are closed: every top-level block followed by one that
    /// started on a finished line after a blank line. Call after appending.
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
    mutating func settle() {
        guard case .markdown(var lines, var first) = segment, lines.count > 1 else { return }
        let blocks = MarkdownParser.parse(lines.joined(separator: "\n") + "\n").children
        var k = 0
        while true {
            var last = k  // blocks[k...last] close together
            while last < blocks.count && blocks[last].startLine == 0 { last += 1 }
            guard last + 1 < blocks.count else { break }
            let next = blocks[last + 1].startLine
            let start = blocks[last].startLine
            guard next > blocks[last].endLine, next >= 2, next <= lines.count, start >= 1,
                Self.isBlank(lines[next - 2]) || Self.isATXHeading(blocks[last + 1], line: lines[next - 1])
                    || Self.isATXHeading(blocks[last], line: lines[start - 1])
            else {
                break
            }
            for block in blocks[k...last] {
                emit(
                    renderer.render(block),
                    source: (first + blocks[last].startLine - 1)...(first + blocks[last].endLine - 1))
            }
            k = last + 1
        }
        guard k > 0 else { return }
        let drop = min(lines.count, blocks[k].startLine - 1)
        segment = .none
        lines.removeFirst(drop)
        first += drop
        segment = .markdown(lines: lines, first: first)
    }

    /// The markdown or gate lines, taken out of `segment` (left `.none`) so that appending to
    /// them appends in place: a copy per line would make a long tail quadratic.
    private mutating func takeSegmentLines() -> (lines: [String], first: Int) {
        let taken: (lines: [String], first: Int)
        switch segment {
        case .markdown(let lines, let first), .gate(let lines, let first): taken = (lines, first)
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

    mutating func setRemovedFront(_ n: Int) { removedFront = max(0, n) }

    /// Everything as shown now: the closed lines, then the unfinished tail with `open` (the
    /// buffer's unfinished last line) as it stands.
    func lines(open: TaskOutputBuffer.Line?) -> [RenderedLine] {
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
        return tail.isEmpty ? scratch.closed : scratch.closed + tail
    }

    // MARK: Parts

    private var separator: [RenderedLine] { emittedAny ? [RenderedLine()] : [] }

    /// Markdown takes text without SGR (colours are for logs) and tabs at 4-cell stops.
    private static func markdownText(_ text: String) -> String {
        UntrustedText.stripSGR(TabExpansion.expandKeepingSGR(text, tabWidth: 4))
    }

    /// A top-level ATX heading (`# …`, up to three spaces in), not a setext one.
    private static func isATXHeading(_ block: MarkdownNode, line: String) -> Bool {
        guard case .heading = block.kind else { return false }
        let indent = line.prefix { $0 == " " }.count
        return indent <= 3 && line.dropFirst(indent).hasPrefix("#")
    }

    /// A line the parser reads as blank (tabs are expanded before this).
    private static func isBlank(_ line: String) -> Bool { line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

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
        closed += lines
        sources += Array(repeating: source, count: lines.count)
    }

    private mutating func closeSegment(upTo index: Int? = nil) {
        let current = segment
        segment = .none
        switch current {
        case .markdown(let lines, let first):
            guard !lines.isEmpty else { return }
            for block in MarkdownParser.parse(lines.joined(separator: "\n") + "\n").children {
                emit(
                    renderer.render(block), source: (first + block.startLine - 1)...(first + block.endLine - 1))
            }
        case .gate(let lines, let first):
            emit(
                OutputCards.gate(OutputCards.parseGate(lines.joined(separator: "\n")), glyphs: glyphs),
                source: first...(index ?? first + lines.count - 1))
            gateFromText = true
        case .tool, .none:
            break
        }
    }

    /// The unfinished markdown or gate segment, with `open` as its last line.
    private func tail(open: String?) -> [RenderedLine] {
        switch segment {
        case .markdown(let lines, _):
            var r = renderer
            var out: [RenderedLine] = []
            var emitted = emittedAny
            var source = lines
            var pendingGate: String?
            if let open {
                if Self.mayStartGate(open) { pendingGate = open } else { source.append(open) }
            }
            if !source.isEmpty {
                for block in MarkdownParser.parse(source.joined(separator: "\n")).children {
                    if emitted { out.append(RenderedLine()) }
                    out += r.render(block)
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
    private mutating func logLine(_ text: String, stream: String, finished: Bool) -> [RenderedLine] {
        let base: CellStyle = stream == "stderr" ? CellStyle(fg: .danger) : CellStyle(fg: .foregroundMuted)
        var builder = builders[stream] ?? StyledTextBuilder(base: base)
        builder.append(TabExpansion.expandKeepingSGR(text, tabWidth: 8) + (finished ? "\n" : ""))
        let content = (finished ? builder.takeLines().first : builder.current) ?? StyledLine()
        builders[stream] = builder
        let gutter = StyledLine(
            (glyphs.isUnicode ? "▏" : "|") + " ", CellStyle(fg: stream == "stderr" ? .danger : .borderMuted))
        return [RenderedLine(content, prefix: gutter, hanging: gutter, wrap: .characters)]
    }
}
