import Foundation

/// One task's output as lines, bounded to the newest `capacity` lines (2000 by default, as
/// docs/architecture.md says), cut as `OutputLineSplit` says. Output chunks may end mid-line;
/// the open line is kept apart until its newline.
///
/// A reader can put older lines in front (`prepend(_:from:)`, fetched on demand): the bound
/// is then `readingWindow` lines, older and live together, until `endReading()` (the view
/// closed) brings it back to `capacity`.
/// Status changes, completion gates and supervisor questions become lines of their own kind
/// so the viewer can draw them as cards.
public struct TaskOutputBuffer: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case text(stream: String)
        case status(TaskStatus, reason: String?)
        case completionGate(ready: Bool, summary: String?, body: String)
        case supervisorQuestion(text: String, directiveID: String?)
    }

    public struct Line: Sendable, Equatable {
        public var seq: Int
        public var kind: Kind
        /// Text with normalised SGR kept (see `UntrustedText.cleanKeepingSGR`).
        public var text: String
        /// When the event came (status changes show it).
        public var time: Date? = nil
    }

    public let capacity: Int
    /// The most lines held while older output is being read.
    public static let readingWindow = 50_000
    /// The bound in force: `capacity`, or more while older lines fetched for reading are held.
    public private(set) var limit: Int
    /// Every event from this seq up to `firstSeq` was delivered (older fetches say so); nil
    /// when unknown. 1 means the output's start is held.
    public private(set) var coveredFrom: Int?
    /// A fetch of older output is on its way (the view's top line says so).
    public var olderLoading = false
    public private(set) var lines: [Line] = []
    /// The unfinished last line of text output, if any.
    public private(set) var openLine: Line?
    /// Lines dropped off the front since the buffer started; the viewer fetches them on demand.
    public private(set) var droppedLines = 0
    /// The lowest seq whose text is still (at least partly) held.
    public var firstSeq: Int? { lines.first?.seq ?? openLine?.seq }
    public private(set) var lastSeq = 0
    public private(set) var status: TaskStatus?

    public init(capacity: Int = 2000) {
        self.capacity = capacity
        limit = capacity
    }

    /// The seq older output would come before, or nil when the output's start is held.
    public var olderBefore: Int? {
        let before = min(firstSeq ?? (lastSeq + 1), coveredFrom ?? Int.max)
        return before > 1 ? before : nil
    }

    /// The reading window is full: older output exists but no more of it is held.
    public var readingWindowFull: Bool { olderBefore != nil && lineCount >= max(capacity, Self.readingWindow) }

    public var allLines: [Line] { openLine.map { lines + [$0] } ?? lines }
    public var lineCount: Int { lines.count + (openLine == nil ? 0 : 1) }

    public mutating func append(_ events: [TaskEvent]) {
        for i in events.indices { append(events[i]) }  // by index: no copy of each event
        trim()
    }

    private mutating func append(_ event: TaskEvent) {
        // The sync engine delivers each event once, in order; an event at or below `lastSeq`
        // is one this buffer already holds through `prepend` (history fetched for the viewer
        // while the engine was still filling the same range).
        guard event.seq > lastSeq else { return }
        lastSeq = event.seq
        switch event.payload {
        case .output(let text, let stream):
            appendText(text, stream: stream, seq: event.seq)
        case .status(let s, _, let reason):
            status = s
            closeOpenLine()
            lines.append(Line(seq: event.seq, kind: .status(s, reason: reason), text: s.rawValue, time: event.ts))
        case .completionGate(let ready, let summary, let body):
            closeOpenLine()
            lines.append(
                Line(
                    seq: event.seq, kind: .completionGate(ready: ready, summary: summary, body: body),
                    text: summary ?? ""))
        case .supervisorQuestion(_, let text, let directiveID):
            closeOpenLine()
            lines.append(
                Line(seq: event.seq, kind: .supervisorQuestion(text: text, directiveID: directiveID), text: text))
        case .unknown:
            break
        }
    }

    private mutating func appendText(_ text: String, stream: String, seq: Int) {
        OutputLineSplit.forEachPiece(of: text) { part, ended in
            appendPiece(part, ended: ended, stream: stream, seq: seq)
        }
    }

    /// A piece of a line: it continues the open line of the same stream, else starts a line;
    /// `ended` when a newline followed it.
    private mutating func appendPiece(_ part: Substring, ended: Bool, stream: String, seq: Int) {
        var line: Line
        if case .text(let s)? = openLine?.kind, OutputLineSplit.continues(openStream: s, with: stream) {
            line = openLine!
            openLine = nil  // `line` is the text's only owner now: appended in place
            line.text += part
        } else {
            closeOpenLine()
            line = Line(seq: seq, kind: .text(stream: stream), text: String(part))
        }
        if ended { lines.append(line) } else { openLine = line }
    }

    private mutating func closeOpenLine() {
        if let open = openLine {
            lines.append(open)
            openLine = nil
        }
    }

    private mutating func trim() {
        let excess = lineCount - limit
        guard excess > 0 else { return }
        let fromLines = min(excess, lines.count)
        lines.removeFirst(fromLines)
        droppedLines += fromLines
        coveredFrom = nil
    }
}

extension TaskOutputBuffer {
    /// Puts older lines in front of the ones held. With `from` (a fetch for reading: every
    /// event from that seq up to the first held), the bound becomes `readingWindow` lines;
    /// past it the oldest of them are not kept. Without it (the cache's
    /// newest lines for a view opening) the bound stays and the next append trims.
    public mutating func prepend(_ older: TaskOutputBuffer, from: Int? = nil) {
        olderLoading = false
        var keep = older.allLines.filter { $0.seq < (firstSeq ?? Int.max) }
        if let from {
            let room = max(0, max(capacity, Self.readingWindow) - lineCount)
            if keep.count > room {
                keep.removeFirst(keep.count - room)
            } else if firstSeq == nil || from < firstSeq! {
                coveredFrom = min(coveredFrom ?? from, from)
            }
            limit = max(capacity, Self.readingWindow)
        }
        lines.insert(contentsOf: keep, at: 0)
        droppedLines = max(0, droppedLines - keep.count)
        // Later appends skip what the older part already holds; its status stands until a newer one.
        if lastSeq < older.lastSeq {
            lastSeq = older.lastSeq
            status = older.status ?? status
        }
    }

    /// The view closed: older lines fetched for reading are let go (the newest `capacity` stay).
    public mutating func endReading() {
        olderLoading = false
        guard limit > capacity else { return }
        limit = capacity
        trim()
    }
}
