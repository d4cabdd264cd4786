/// A fenced code block as a frame: a top edge with the language chip, the code highlighted
/// and never wrapped (it scrolls sideways), a bottom edge.
///
///     ╭┄ SWIFT ┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄╮
///     ┆ let x = 1                ┆
///     ╰┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄╯
enum CodeBlockRenderer {
    static let tabWidth = 4

    static func render(info: String, code: String, number: Int, glyphs: Glyphs) -> [RenderedLine] {
        let edge = MarkdownStyle.frame
        var top = StyledLine(glyphs.topLeft + glyphs.dashHorizontal + " ", edge)
        top.append(" " + LanguageSyntax.chip(forInfo: info) + " ", MarkdownStyle.chip)
        top.append(" ", edge)
        var lines = [
            RenderedLine(
                top, wrap: .none, fill: Span(glyphs.dashHorizontal, edge), trailer: StyledLine(glyphs.topRight, edge),
                codeBlock: number)
        ]
        var highlighter = CodeHighlighter(syntax: LanguageSyntax.forInfo(info))
        var source = code.split(separator: "\n", omittingEmptySubsequences: false)
        if source.last == "" { source.removeLast() }
        for line in source {
            lines.append(
                RenderedLine(
                    highlighter.highlight(TabExpansion.expand(String(line), tabWidth: tabWidth)),
                    prefix: StyledLine(glyphs.dashVertical + " ", edge), wrap: .none,
                    trailer: StyledLine(" " + glyphs.dashVertical, edge), codeBlock: number))
        }
        lines.append(
            RenderedLine(
                StyledLine(glyphs.bottomLeft, edge), wrap: .none, fill: Span(glyphs.dashHorizontal, edge),
                trailer: StyledLine(glyphs.bottomRight, edge), codeBlock: number))
        return lines
    }
}

/// Tabs to spaces, to the next multiple of `tabWidth` counted in cells (a CJK character
/// before a tab takes two).
enum TabExpansion {
    /// Each tab becomes the spaces to the next multiple of `tabWidth` cells. With `keepingSGR`,
    /// the normalised SGR sequences task output keeps are passed through and take no cells.
    static func expand(_ text: String, tabWidth: Int, keepingSGR: Bool = false) -> String {
        // A byte scan: `contains("\t")` would be Foundation's substring search, per line.
        guard text.utf8.contains(UInt8(ascii: "\t")) else { return text }
        var out = ""
        var column = 0
        var inSequence = false
        for ch in text {
            if inSequence {
                out.append(ch)
                if ch != "[" && ch != ";" && !ch.isNumber { inSequence = false }
            } else if keepingSGR && ch == "\u{1B}" {
                out.append(ch)
                inSequence = true
            } else if ch == "\t" {
                let n = tabWidth - column % tabWidth
                out += String(repeating: " ", count: n)
                column += n
            } else {
                out.append(ch)
                column += CellWidth.of(ch)
            }
        }
        return out
    }
}
