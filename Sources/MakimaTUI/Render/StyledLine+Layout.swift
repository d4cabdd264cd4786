extension StyledLine {
    /// The line broken into rows of at most `cells` cells, between characters (output is
    /// code and logs: breaking at words would move columns). A wide character that does not
    /// fit moves whole to the next row. An empty line is one empty row.
    public func wrapped(to cells: Int) -> [StyledLine] {
        guard cells > 0, width > cells else { return [self] }
        var rows: [StyledLine] = []
        var row = StyledLine()
        var used = 0
        for span in spans {
            var piece = ""
            for ch in span.text {
                let w = CellWidth.of(ch)
                if used + w > cells {
                    row.append(piece, span.style)
                    rows.append(row)
                    row = StyledLine()
                    piece = ""
                    used = 0
                }
                piece.append(ch)
                used += w
            }
            row.append(piece, span.style)
        }
        if !row.spans.isEmpty || rows.isEmpty { rows.append(row) }
        return rows
    }
}

extension StyledLine {
    /// `a` followed by `b`.
    public static func + (a: StyledLine, b: StyledLine) -> StyledLine {
        var out = a
        out.append(b)
        return out
    }
}
