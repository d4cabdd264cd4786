import Foundation
import MakimaKit

/// What the task output view shows: the task's header, its plan and its output as rendered
/// lines (markdown, logs and cards, see `OutputDocument`).
public struct TaskOutputViewModel: Equatable, Sendable {
    public var taskID: String
    public var title: String
    public var status: TaskStatus?
    public var lines: OutputLines
    /// Rendered lines dropped off the front before `lines[0]` (the header counts them).
    public var firstLineNumber: Int
    /// The number of `lines[0]` in a numbering that stays with each line as lines leave the
    /// front or older ones come in front (it may go below 0): the view keeps its line across both.
    public var origin: Int
    /// How many lines the header says the output has: never fewer than it said before while
    /// older output comes in front (`TaskOutputLines.lineCount`).
    public var lineCount: Int
    /// What is above `lines[0]`.
    public var older: OlderOutput
    /// Said when there is no output (loading, or why it could not be loaded).
    public var note: String?
    /// The header's second line: where the task runs, for what, and when.
    public var facts = TaskFacts()
    /// The task's plan rendered like the output (empty: no plan).
    public var plan: [RenderedLine] = []
    /// The output's links: `[n]` in the text is `links[n - 1]` (what `:open n` opens).
    public var links: [String] = []

    public init(
        taskID: String, title: String, status: TaskStatus? = nil, lines: [RenderedLine] = [],
        firstLineNumber: Int = 0, note: String? = nil
    ) {
        self.init(
            taskID: taskID, title: title, status: status, shown: OutputLines(lines), firstLineNumber: firstLineNumber,
            note: note)
    }

    init(
        taskID: String, title: String, status: TaskStatus? = nil, shown lines: OutputLines, firstLineNumber: Int,
        note: String?
    ) {
        self.taskID = taskID
        self.title = title
        self.status = status
        self.lines = lines
        self.firstLineNumber = firstLineNumber
        origin = firstLineNumber
        lineCount = firstLineNumber + lines.count
        older = firstLineNumber > 0 ? .available : .start
        self.note = note
    }

    /// Takes the numbering and what is above the first line from the converted lines.
    mutating func adopt(_ converted: TaskOutputLines) {
        origin = converted.origin
        lineCount = max(lineCount, converted.lineCount)
        older = converted.older
    }
}

/// What is above a task's first line held: the top line of the view says it.
public enum OlderOutput: Equatable, Sendable {
    /// Older output exists on the server; scrolling above the first line (or `g`) loads it.
    case available
    case loading
    /// The output's first line is held.
    case start
    /// Older output exists, but the view holds no more (`TaskOutputBuffer.readingWindow`).
    case windowFull

    /// The view's top line for it.
    func text(glyphs: Glyphs) -> String {
        switch self {
        case .available: "older output above · k loads it"
        case .loading: "loading older output" + glyphs.ellipsis
        case .start: "start of output"
        case .windowFull:
            "older output not held: a view keeps \(groupedDigits(TaskOutputBuffer.readingWindow)) lines"
        }
    }
}

/// `50000` as `50,000`.
func groupedDigits(_ n: Int) -> String {
    var digits = Array(String(n.magnitude))
    var i = digits.count - 3
    while i > 0 {
        digits.insert(",", at: i)
        i -= 3
    }
    return (n < 0 ? "-" : "") + String(digits)
}

/// The facts under a task's title, each shown only when known.
public struct TaskFacts: Equatable, Sendable {
    /// The daemon's hostname (or its id when the hostname is unknown).
    public var daemon: String?
    /// The contract's name (or its id).
    public var contract: String?
    /// The server's times, read on our clock through `serverClock`.
    public var created: Date?
    public var updated: Date?
    public var completed: Date?
    /// The parent task's title (or id).
    public var parent: String?
    public var serverClock: ClockOffset

    public init(
        daemon: String? = nil, contract: String? = nil, created: Date? = nil, updated: Date? = nil,
        completed: Date? = nil, parent: String? = nil, serverClock: ClockOffset = .zero
    ) {
        self.daemon = daemon
        self.contract = contract
        self.created = created
        self.updated = updated
        self.completed = completed
        self.parent = parent
        self.serverClock = serverClock
    }

    /// `label value` pairs in reading order, ages measured at `now`.
    public func items(now: Date) -> [(label: String, value: String)] {
        var out: [(String, String)] = []
        if let daemon { out.append(("DAEMON", daemon)) }
        if let contract { out.append(("CONTRACT", contract)) }
        if let created { out.append(("CREATED", ago(created, now: now, clock: serverClock))) }
        if let updated { out.append(("UPDATED", ago(updated, now: now, clock: serverClock))) }
        if let completed { out.append(("COMPLETED", ago(completed, now: now, clock: serverClock))) }
        if let parent { out.append(("PARENT", parent)) }
        return out
    }
}

/// Markdown of a task's plan rendered to lines, with the same renderer as the output.
enum TaskPlan {
    static func render(_ markdown: String, glyphs: Glyphs) -> [RenderedLine] {
        guard !markdown.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        var renderer = MarkdownRenderer(glyphs: glyphs)
        let lines = MarkdownParser.parse(markdown + "\n").children.flatMap { renderer.render($0) }
        // The plan numbers its links apart from the output's: its cells are not hyperlinks
        // to the output's URLs (`CellStyle.link`), only `[n]` text.
        return lines.map { line in
            var plain = line
            for part in [\RenderedLine.prefix, \RenderedLine.hanging, \RenderedLine.content] {
                plain[keyPath: part].spans = plain[keyPath: part].spans.map { span in
                    var s = span
                    s.style.link = 0
                    return s
                }
            }
            return plain
        }
    }
}
