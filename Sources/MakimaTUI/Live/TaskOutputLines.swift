import MakimaKit

/// Turns a task's `TaskOutputBuffer` into styled lines for the output view, converting only
/// what changed since the last call: new lines at the end, lines dropped off the front, and
/// the open (unfinished) line. Anything else (older output put in front) converts it all again.
struct TaskOutputLines {
    private(set) var converted: [StyledLine] = []
    private var dropped = 0
    /// `buffer.lines.first` at the last call: if it changed with nothing dropped, lines were put in front.
    private var first: TaskOutputBuffer.Line?
    private var glyphs: Glyphs

    init(glyphs: Glyphs = .unicode) { self.glyphs = glyphs }

    /// The lines of `buffer`, the open line last.
    mutating func lines(of buffer: TaskOutputBuffer) -> [StyledLine] {
        let newlyDropped = buffer.droppedLines - dropped
        let prepended = newlyDropped == 0 && !converted.isEmpty && buffer.lines.first != first
        defer { first = buffer.lines.first }
        if newlyDropped < 0 || prepended || converted.count - newlyDropped > buffer.lines.count {
            converted = []
            dropped = buffer.droppedLines
        } else {
            converted.removeFirst(min(newlyDropped, converted.count))
            dropped = buffer.droppedLines
        }
        if converted.count < buffer.lines.count {
            converted.append(contentsOf: buffer.lines[converted.count...].map { Self.style($0, glyphs) })
        }
        guard let open = buffer.openLine else { return converted }
        return converted + [Self.style(open, glyphs)]
    }

    /// One buffer line as the viewer draws it. Output text keeps its (palette-mapped) SGR
    /// colours over a base colour per stream; events of other kinds become marker lines.
    static func style(_ line: TaskOutputBuffer.Line, _ g: Glyphs) -> StyledLine {
        switch line.kind {
        case .text(let stream):
            let base: CellStyle = switch stream {
            case "stderr": CellStyle(fg: .danger)
            case "tool": CellStyle(fg: .foregroundMuted)
            default: CellStyle(fg: .body)
            }
            let text = line.text.replacingOccurrences(of: "\t", with: "    ")
            return StyledTextBuilder.lines(text, base: base).first ?? StyledLine()
        case .status(let status, let reason):
            let rule = g.ruleHorizontal + g.ruleHorizontal
            let text = "\(rule) STATUS \(status.rawValue.uppercased())" + (reason.map { " · " + oneLine($0) } ?? "") + " \(rule)"
            return StyledLine(text, CellStyle(fg: StatusStyle.task(status), attributes: .bold))
        case .completionGate(let ready, let summary, _):
            let text = "[COMPLETION GATE · \(ready ? "READY" : "NOT READY")]" + (summary.map { " " + oneLine($0) } ?? "")
            return StyledLine(text, CellStyle(fg: ready ? .ok : .warn, attributes: .bold))
        case .supervisorQuestion(let text, _):
            return StyledLine("? QUESTION: " + oneLine(text), CellStyle(fg: .warn, attributes: .bold))
        }
    }
}
