/// The parts a scrolling detail view (a task's output, a transcript) draws around its body.
extension CellBuffer {
    /// The muted rule across `area` at row `y` that separates the view's header from its body.
    mutating func writeBodyRule(across area: Rect, y: Int, glyphs: Glyphs) {
        write(
            String(repeating: glyphs.ruleHorizontal, count: max(0, area.width)), x: area.x, y: y,
            style: CellStyle(fg: .borderMuted), maxX: area.maxX)
    }

    /// What an empty body says instead of lines (`loading…`, `no lines`), at its top-left.
    mutating func writeEmptyBodyNote(_ note: String, in body: Rect) {
        write(note, x: body.x, y: body.y, style: CellStyle(fg: .foregroundMuted, attributes: .italic), maxX: body.maxX)
    }
}
