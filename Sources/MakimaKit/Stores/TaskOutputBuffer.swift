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
        append(events, passingOverHidden: true)
    }

    /// `passingOverHidden`: the lines a batch itself pushes out of the bound are counted, not
    /// made. In a burst one batch holds many times `limit` lines of a task; only its newest
    /// `limit` can stay, so the events before those only move the counters and the open line.
    /// The result is the same buffer either way (`TaskOutputBufferTests` compares the two).
    mutating func append(_ events: [TaskEvent], passingOverHidden: Bool) {
        let firstShown = passingOverHidden ? firstEventShown(of: events) : 0
        let droppedBefore = droppedLines
        if firstShown > 0 {
            // The events from `firstShown` on fill the bound by themselves: every line held now
            // goes, as `trim` would take it.
            droppedLines += lines.count
            lines.removeAll(keepingCapacity: true)
        }
        // By index: no copy of each event.
        for i in events.indices { append(events[i], shown: i >= firstShown) }
        trim()
        if droppedLines > droppedBefore { coveredFrom = nil }  // as `trim` says when it drops
    }

    /// The first event whose lines can still be held once the whole batch is in: walking back
    /// from the newest, the events that surely add `limit` lines (a newline each, a card each;
    /// an open line closed by another stream is not counted, so the count is a floor). 0 when
    /// the batch is not in plain increasing order past `lastSeq` (then every event is applied).
    private func firstEventShown(of events: [TaskEvent]) -> Int {
        guard events.count > 1, let first = events.first, first.seq > lastSeq else { return 0 }
        var surelyAdded = 0
        var next = Int.max
        for i in events.indices.reversed() {
            let e = events[i]
            guard e.seq < next else { return 0 }
            next = e.seq
            switch e.payload {
            case .output(let text, _): surelyAdded += OutputLineSplit.newlines(in: text)
            case .status, .completionGate, .supervisorQuestion: surelyAdded += 1
            case .unknown: break
            }
            if surelyAdded >= limit {
                // Events before `i` must still be in seq order for the count to hold.
                for j in 1..<max(1, i) where events[j].seq <= events[j - 1].seq { return 0 }
                return i
            }
        }
        return 0
    }

    /// `shown` false: the lines it ends are counted as dropped instead of held (see `append`).
    private mutating func append(_ event: TaskEvent, shown: Bool) {
        // The sync engine delivers each event once, in order; an event at or below `lastSeq`
        // is one this buffer already holds through `prepend` (history fetched for the viewer
        // while the engine was still filling the same range).
        guard event.seq > lastSeq else { return }
        lastSeq = event.seq
        switch event.payload {
        case .output(let text, let stream):
            if shown {
                appendText(text, stream: stream, seq: event.seq)
            } else {
                passOver(text, stream: stream, seq: event.seq)
            }
        case .status(let s, _, let reason):
            status = s
            closeOpenLine(shown: shown)
            hold(Line(seq: event.seq, kind: .status(s, reason: reason), text: s.rawValue, time: event.ts), shown: shown)
        case .completionGate(let ready, let summary, let body):
            closeOpenLine(shown: shown)
            hold(
                Line(
                    seq: event.seq, kind: .completionGate(ready: ready, summary: summary, body: body),
                    text: summary ?? ""), shown: shown)
        case .supervisorQuestion(_, let text, let directiveID):
            closeOpenLine(shown: shown)
            hold(
                Line(seq: event.seq, kind: .supervisorQuestion(text: text, directiveID: directiveID), text: text),
                shown: shown)
        case .unknown:
            break
        }
    }

    private mutating func hold(_ line: Line, shown: Bool) {
        if shown { lines.append(line) } else { droppedLines += 1 }
    }

    private mutating func appendText(_ text: String, stream: String, seq: Int) {
        OutputLineSplit.forEachPiece(of: text) { part, ended in
            appendPiece(part, ended: ended, stream: stream, seq: seq)
        }
    }

    /// What `appendText` does to the counters and the open line, with the lines it ends
    /// counted as dropped and no text made but the open line's.
    private mutating func passOver(_ text: String, stream: String, seq: Int) {
        let (pieces, endsOpen) = OutputLineSplit.shape(of: text)
        guard pieces > 0 else { return }
        let ended = endsOpen ? pieces - 1 : pieces
        if case .text(let s)? = openLine?.kind, OutputLineSplit.continues(openStream: s, with: stream) {
            // Continued: the first ended piece finishes it, else the open piece below extends it.
            if ended > 0 { openLine = nil }
        } else {
            closeOpenLine(shown: false)
        }
        droppedLines += ended
        if endsOpen { appendPiece(OutputLineSplit.lastPiece(of: text), ended: false, stream: stream, seq: seq) }
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

    private mutating func closeOpenLine(shown: Bool = true) {
        if let open = openLine {
            hold(open, shown: shown)
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
