import MakimaKit

/// Turns a task's `TaskOutputBuffer` into styled lines for the output view, converting only
/// what changed since the last call: new lines at the end, lines dropped off the front, and
/// the open (unfinished) line. Anything else (older output put in front) converts it all
/// again. Colours set by SGR carry from line to line within a stream, as in a terminal.
struct TaskOutputLines {
    private(set) var converted: [StyledLine] = []
    private var dropped = 0
    /// `buffer.lines.first` at the last call: if it changed with nothing dropped, lines were put in front.
    private var first: TaskOutputBuffer.Line?
    /// One SGR state per output stream (stderr colours do not leak into the assistant's text).
    private var builders: [String: StyledTextBuilder] = [:]
    private let glyphs: Glyphs

    init(glyphs: Glyphs = .unicode) { self.glyphs = glyphs }

    /// The lines of `buffer`, the open line last.
    mutating func lines(of buffer: TaskOutputBuffer) -> [StyledLine] {
        let newlyDropped = buffer.droppedLines - dropped
        let prepended = newlyDropped == 0 && !converted.isEmpty && buffer.lines.first != first
        if newlyDropped < 0 || prepended || converted.count - newlyDropped > buffer.lines.count {
            converted = []
            builders = [:]
        } else {
            converted.removeFirst(min(newlyDropped, converted.count))
        }
        dropped = buffer.droppedLines
        first = buffer.lines.first
        for line in buffer.lines.dropFirst(converted.count) { converted.append(convert(line)) }
        guard let open = buffer.openLine else { return converted }
        var scratch = self  // the open line may still grow: its text must not move the SGR state yet
        return converted + [scratch.convert(open, finished: false)]
    }

    private mutating func convert(_ line: TaskOutputBuffer.Line, finished: Bool = true) -> StyledLine {
        guard case .text(let stream) = line.kind else { return Self.marker(line, glyphs) }
        var builder = builders[stream] ?? StyledTextBuilder(base: Self.base(stream))
        builder.append(line.text.replacingOccurrences(of: "\t", with: "    ") + (finished ? "\n" : ""))
        let out = finished ? builder.takeLines().first : builder.current
        builders[stream] = builder
        return out ?? StyledLine()
    }

    static func base(_ stream: String) -> CellStyle {
        switch stream {
        case "stderr": return CellStyle(fg: .danger)
        case "tool": return CellStyle(fg: .foregroundMuted)
        default: return CellStyle(fg: .body)
        }
    }

    /// Status changes, completion gates and questions as one marked line each.
    static func marker(_ line: TaskOutputBuffer.Line, _ g: Glyphs) -> StyledLine {
        switch line.kind {
        case .text: return StyledLine(line.text)
        case .status(let status, let reason):
            let rule = g.ruleHorizontal + g.ruleHorizontal
            let text =
                "\(rule) STATUS \(status.rawValue.uppercased())" + (reason.map { " · " + oneLine($0) } ?? "")
                + " \(rule)"
            return StyledLine(text, CellStyle(fg: StatusStyle.task(status), attributes: .bold))
        case .completionGate(let ready, let summary, _):
            let text =
                "[COMPLETION GATE · \(ready ? "READY" : "NOT READY")]" + (summary.map { " " + oneLine($0) } ?? "")
            return StyledLine(text, CellStyle(fg: ready ? .ok : .warn, attributes: .bold))
        case .supervisorQuestion(let text, _):
            return StyledLine("? QUESTION: " + oneLine(text), CellStyle(fg: .warn, attributes: .bold))
        }
    }
}
