/// Builds a list row from columns padded to fixed widths in cells (CJK text counts two per
/// character), so columns line up whatever the script. The last column takes the rest.
struct RowLine {
    private(set) var line = StyledLine()
    static let gap = 2

    /// A column `width` cells wide (cut with an ellipsis when longer); nil: no padding.
    mutating func column(_ text: String, _ width: Int?, _ style: CellStyle) {
        if !line.spans.isEmpty { line.append(String(repeating: " ", count: Self.gap), .plain) }
        guard let width else { return line.append(text, style) }
        guard width > 1 else { return line.append(StyledLine(text, style).padded(to: width)) }
        let (shown, cells) = Self.fit(text, width)
        line.append(shown, style)
        if cells < width { line.append(String(repeating: " ", count: width - cells), .plain) }
    }

    /// `text` cut to `width` cells as `StyledLine.truncated` cuts it (ending in "…", a wide
    /// character that does not fit left out), and the cells it takes. One pass that stops at
    /// the cut: a list pane lays out every row of a large list, and `padded` measures the
    /// whole text, cuts it, then measures again.
    static func fit(_ text: String, _ width: Int) -> (String, cells: Int) {
        var used = 0
        // Where the text would be cut if it turns out too long: one cell left for "…".
        var cut = text.startIndex
        var usedAtCut = 0
        var i = text.startIndex
        while i < text.endIndex {
            let w = CellWidth.of(text[i])
            if used + w > width { return (text[..<cut] + "…", usedAtCut + 1) }
            used += w
            text.formIndex(after: &i)
            if used <= width - 1 {
                cut = i
                usedAtCut = used
            }
        }
        return (text, used)
    }
}

extension RowLine {
    /// Column titles laid out with the same widths as the rows below them.
    static func header(_ columns: [(String, Int?)]) -> StyledLine {
        var r = RowLine()
        for (title, width) in columns {
            r.column(title.uppercased(), width, CellStyle(fg: .foregroundMuted, attributes: [.bold, .underline]))
        }
        return r.line
    }
}
