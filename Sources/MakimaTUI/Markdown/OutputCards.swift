import Foundation
import MakimaKit

/// The cards drawn into task output: a completion gate, a supervisor question, a status rule.
/// Cards are drawn in the dashed style of the dashboard's cards (`Card`), as lines, so they
/// scroll with the output; their right edge follows the view's width.
enum OutputCards {
    /// A `<COMPLETION_GATE>` block read as fields: `ready`, then the rest in order.
    struct Gate: Equatable, Sendable {
        var ready: Bool?
        var fields: [(key: String, value: String)]

        static func == (a: Gate, b: Gate) -> Bool {
            a.ready == b.ready && a.fields.map(\.key) == b.fields.map(\.key)
                && a.fields.map(\.value) == b.fields.map(\.value)
        }
    }

    static let gateOpen = "<COMPLETION_GATE>"
    static let gateClose = "</COMPLETION_GATE>"

    /// Reads `key: value` lines (a line without a key continues the previous value), the tags
    /// removed. Nothing is lost: text before any key becomes a `note`.
    static func parseGate(_ body: String) -> Gate {
        let text = body.replacingOccurrences(of: gateOpen, with: "\n").replacingOccurrences(of: gateClose, with: "\n")
        var gate = Gate(ready: nil, fields: [])
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            // A tag still arriving (`</COMPLETION_G`) is markup, not a field.
            guard !line.isEmpty, !(line.hasPrefix("<") && (gateOpen.hasPrefix(line) || gateClose.hasPrefix(line)))
            else { continue }
            if let colon = line.firstIndex(of: ":"), isKey(line[..<colon]) {
                let key = line[..<colon].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if key.lowercased() == "ready" {
                    gate.ready = ["true", "yes", "ready", "1"].contains(value.lowercased())
                } else {
                    gate.fields.append((key, value))
                }
            } else if gate.fields.isEmpty {
                gate.fields.append(("note", line))
            } else {
                let last = gate.fields.count - 1
                gate.fields[last].value += gate.fields[last].value.isEmpty ? line : "\n" + line
            }
        }
        return gate
    }

    private static func isKey(_ s: Substring) -> Bool {
        let k = s.trimmingCharacters(in: .whitespaces)
        guard let first = k.unicodeScalars.first, k.count <= 32, first.properties.isAlphabetic else { return false }
        return k.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_- ".unicodeScalars.contains($0)
        }
    }

    /// The gate as a card: READY in the ok colour or NOT READY in warn, then its fields as a
    /// two-column table. `ready` nil (not said yet, while streaming) reads as NOT READY.
    static func gate(_ gate: Gate, glyphs g: Glyphs) -> [RenderedLine] {
        let role: ColorRole = gate.ready == true ? .ok : .warn
        let verdict = gate.ready == true ? "READY" : "NOT READY"
        var rows: [(key: String, value: String)] = gate.fields
        if rows.isEmpty { rows = [("summary", "(none given)")] }
        return card(title: "COMPLETION GATE", verdict: verdict, role: role, rows: rows, glyphs: g)
    }

    /// A supervisor question in full, in the warn (amber) colour, with where to answer it:
    /// this app only reads questions.
    static func question(_ text: String, directiveID: String?, glyphs g: Glyphs) -> [RenderedLine] {
        let border = CellStyle(fg: .warn)
        var lines = [top(title: "SUPERVISOR QUESTION", verdict: "WAITING", role: .warn, glyphs: g)]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(boxed(StyledLine(String(line), CellStyle(fg: .foreground, attributes: .bold)), border, g))
        }
        lines.append(boxed(StyledLine(), border, g))
        let whereToAnswer =
            "Answer it in the Makima web app" + (directiveID.map { " (directive \($0))" } ?? "")
            + ": this terminal app only shows questions."
        lines.append(boxed(StyledLine(whereToAnswer, CellStyle(fg: .foregroundMuted, attributes: .italic)), border, g))
        lines.append(bottom(border, g))
        return lines
    }

    /// A thin rule with the new status and when it came.
    static func status(_ status: TaskStatus, reason: String?, time: Date?, timeZone: TimeZone, glyphs g: Glyphs)
        -> RenderedLine
    {
        let role = StatusStyle.task(status)
        var line = StyledLine(g.ruleHorizontal + g.ruleHorizontal + " ", CellStyle(fg: .borderMuted))
        line.append("STATUS " + status.rawValue.uppercased(), CellStyle(fg: role, attributes: .bold))
        if let time { line.append(" \(g.separatorDot) " + clock(time, timeZone), CellStyle(fg: .foregroundMuted)) }
        if let reason, !reason.isEmpty {
            line.append(" \(g.separatorDot) " + oneLine(reason), CellStyle(fg: .foregroundMuted))
        }
        line.append(" ", .plain)
        return RenderedLine(line, wrap: .none, fill: Span(g.ruleHorizontal, CellStyle(fg: .borderMuted)))
    }

    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "--" }
        return "\(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }

    // MARK: Card parts

    private static func card(
        title: String, verdict: String, role: ColorRole, rows: [(key: String, value: String)], glyphs g: Glyphs
    ) -> [RenderedLine] {
        let border = CellStyle(fg: role)
        let keyWidth = min(16, rows.map { CellWidth.of($0.key) }.max() ?? 0)
        var lines = [top(title: title, verdict: verdict, role: role, glyphs: g)]
        for row in rows {
            let key = StyledLine(row.key, CellStyle(fg: .foregroundMuted, attributes: .bold)).padded(
                to: keyWidth, ellipsis: g.ellipsis)
            for (i, part) in row.value.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var l = boxed(StyledLine(String(part), CellStyle(fg: .body)), border, g)
                l.prefix.append(i == 0 ? key : StyledLine(String(repeating: " ", count: keyWidth)))
                l.prefix.append("  ", .plain)
                l.hanging.append(StyledLine(String(repeating: " ", count: keyWidth + 2)))
                lines.append(l)
            }
        }
        lines.append(bottom(border, g))
        return lines
    }

    private static func top(title: String, verdict: String, role: ColorRole, glyphs g: Glyphs) -> RenderedLine {
        let border = CellStyle(fg: role)
        var head = StyledLine(g.topLeft + g.dashHorizontal + " ", border)
        head.append(title + "// ", CellStyle(fg: .foregroundMuted, attributes: .bold))
        var trailer = StyledLine(" ", border)
        trailer.append(verdict, CellStyle(fg: role, attributes: .bold))
        trailer.append(" " + g.dashHorizontal + g.topRight, border)
        return RenderedLine(head, wrap: .none, fill: Span(g.dashHorizontal, border), trailer: trailer)
    }

    private static func boxed(_ content: StyledLine, _ border: CellStyle, _ g: Glyphs) -> RenderedLine {
        RenderedLine(
            content, prefix: StyledLine(g.dashVertical + " ", border),
            hanging: StyledLine(g.dashVertical + " ", border),
            wrap: .words, trailer: StyledLine(" " + g.dashVertical, border))
    }

    private static func bottom(_ border: CellStyle, _ g: Glyphs) -> RenderedLine {
        RenderedLine(
            StyledLine(g.bottomLeft, border), wrap: .none, fill: Span(g.dashHorizontal, border),
            trailer: StyledLine(g.bottomRight, border))
    }
}
