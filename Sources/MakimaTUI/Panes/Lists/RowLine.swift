/// Builds a list row from columns padded to fixed widths in cells (CJK text counts two per
/// character), so columns line up whatever the script. The last column takes the rest.
struct RowLine {
    private(set) var line = StyledLine()
    static let gap = 2

    /// A column `width` cells wide (cut with an ellipsis when longer); nil: no padding.
    mutating func column(_ text: String, _ width: Int?, _ style: CellStyle) {
        if !line.spans.isEmpty { line.append(String(repeating: " ", count: Self.gap), .plain) }
        if let width {
            line.append(StyledLine(text, style).padded(to: width))
        } else {
            line.append(text, style)
        }
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
