import Foundation

/// One line as the cache holds it.
struct AssembledLine: Equatable {
    var number: Int
    var firstSeq: Int
    var lastSeq: Int
    var stream: String
    var open: Bool
    var text: String

    /// The text reached `TaskLines.maxLineBytes`: what follows, up to the newline, is dropped.
    var isCut: Bool { text.utf8.count > TaskLines.maxLineBytes }

    /// Adds a piece of text, cut at the limit with the marker.
    mutating func append(_ piece: Substring) {
        guard !isCut, !piece.isEmpty else { return }
        let plain = UntrustedText.stripSGR(String(piece))
        let room = TaskLines.maxLineBytes - text.utf8.count
        if plain.utf8.count <= room {
            text += plain
        } else {
            text += OutputSearchIndex.bounded(plain, bytes: room) + TaskLines.cutMarker
        }
    }
}

/// A task's lines assembled from its events in seq order, continuing the line the cache left
/// open; `changed` is what to write (the open line it continued or ended, then new lines).
/// Holds at most `keep` lines besides the open one: older ones would be pruned on writing.
struct TaskLineAssembler {
    let keep: Int
    /// The highest seq assembled.
    private(set) var lastSeq: Int
    /// The open line (stored or new), if any.
    private var open: AssembledLine?
    /// Lines ended here, oldest first (the stored open line among them if it ended).
    private var ended: [AssembledLine] = []
    private var next: Int
    /// The stored line was continued or ended: it is written again.
    private var carriedChanged = false
    private var carriedNumber: Int?

    init(last: AssembledLine?, keep: Int) {
        self.keep = max(1, keep)
        lastSeq = last?.lastSeq ?? 0
        next = (last?.number ?? 0) + 1
        if let last, last.open {
            open = last
            carriedNumber = last.number
        }
    }

    /// What to write, oldest first: the stored line if changed, then the lines begun here.
    var changed: [AssembledLine] {
        var all = ended
        if let open { all.append(open) }
        return all.filter { $0.number != carriedNumber || carriedChanged }
    }

    mutating func add(seq: Int, _ part: TaskLines.Part) {
        switch part {
        case .text(let text, let stream):
            lastSeq = seq
            OutputLineSplit.forEachPiece(of: text) { piece, newline in
                if open == nil || !OutputLineSplit.continues(openStream: open!.stream, with: stream) {
                    endLine()
                    open = AssembledLine(
                        number: next, firstSeq: seq, lastSeq: seq, stream: stream, open: true, text: "")
                    next += 1
                }
                touch()
                open!.append(piece)
                open!.lastSeq = seq
                if newline { endLine() }
            }
        case .end:
            lastSeq = seq
            endLine()
        case .none:
            break
        }
    }

    /// Lines held in events left out before the next ones (`SkippedLines`): the open line is
    /// continued or ended as they say, and the lines they began take their numbers, the last
    /// one left open (with the gap marker for its text) when they end without a newline.
    mutating func skip(_ skipped: SkippedLines) {
        guard skipped.lines > 0 else {
            if skipped.leadingEnd { endLine() }
            return
        }
        var begun = skipped.lines
        if let o = open, !skipped.leadingEnd, let first = skipped.firstStream,
            OutputLineSplit.continues(openStream: o.stream, with: first)
        {
            begun -= 1
            if begun == 0 && skipped.trailingOpen {
                touch()
                open!.append(Substring(TaskLines.gapMarker))
                return
            }
        }
        endLine()
        next += begun
        guard skipped.trailingOpen, begun > 0 else { return }
        open = AssembledLine(
            number: next - 1, firstSeq: skipped.lastSeq, lastSeq: skipped.lastSeq, stream: skipped.lastStream,
            open: true, text: TaskLines.gapMarker)
    }

    /// Ends the open line, if any (the next text starts a new one).
    mutating func endLine() {
        guard var line = open else { return }
        touch()
        line.open = false
        open = nil
        ended.append(line)
        if ended.count >= 2 * keep { ended.removeFirst(ended.count - keep) }
    }

    private mutating func touch() {
        if open?.number == carriedNumber { carriedChanged = true }
    }
}
