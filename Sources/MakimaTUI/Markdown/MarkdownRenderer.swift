/// Turns one parsed top-level markdown block into rendered lines. Numbering (links, code
/// blocks) runs on across blocks, so the renderer is a value the caller keeps between blocks.
struct MarkdownRenderer: Sendable {
    struct Link: Equatable, Sendable {
        var number: Int
        var url: String
    }

    let glyphs: Glyphs
    /// Links seen so far; `[n]` after a link's text is its number here.
    private(set) var links: [Link] = []
    private(set) var codeBlocks = 0

    init(glyphs: Glyphs) { self.glyphs = glyphs }

    /// The next code block takes the last one's number: a code block cut at the open tail's
    /// bound (`OutputDocument`) goes on as the same block, copied whole by its number.
    mutating func continueCodeBlock() { codeBlocks = max(0, codeBlocks - 1) }

    /// The lines of `block` (a child of the document).
    mutating func render(_ block: MarkdownNode) -> [RenderedLine] {
        let before = links.count
        var lines = renderBlock(block, listDepth: 0)
        // Numbered references under the block, so each URL stays readable (and selectable
        // by number) without leaving the text.
        for link in links[before...] {
            var urlStyle = MarkdownStyle.muted
            urlStyle.link = UInt32(clamping: link.number)
            lines.append(
                RenderedLine(
                    StyledLine(link.url, urlStyle),
                    prefix: StyledLine("[\(link.number)] ", MarkdownStyle.linkNumber)))
        }
        return lines
    }

    private mutating func renderBlock(_ node: MarkdownNode, listDepth: Int) -> [RenderedLine] {
        switch node.kind {
        case .paragraph: return inlineLines(node, base: MarkdownStyle.body).map { RenderedLine($0) }
        case .heading(let level): return heading(node, level: level)
        case .thematicBreak: return [RenderedLine(wrap: .none, fill: Span(glyphs.dashHorizontal, MarkdownStyle.rule))]
        case .blockQuote: return blockQuote(node, listDepth: listDepth)
        case .list(let ordered, let start, let tight):
            return list(node, ordered: ordered, start: start, tight: tight, listDepth: listDepth)
        case .item: return blocks(node.children, listDepth: listDepth)
        case .codeBlock(let info, let literal):
            codeBlocks += 1
            return CodeBlockRenderer.render(info: info, code: literal, number: codeBlocks, glyphs: glyphs)
        case .htmlBlock(let html): return htmlBlock(html)
        case .table(let alignments):
            return TableRenderer.render(rows: tableRows(node), alignments: alignments, glyphs: glyphs)
        default:
            // Inline content where a block was expected (cmark does not produce it): as text.
            return inlineLines(MarkdownNode(kind: .paragraph, children: [node]), base: MarkdownStyle.body).map {
                RenderedLine($0)
            }
        }
    }

    // MARK: Blocks

    /// Accent and bold for levels 1-3 (level 1 uppercased), the cards' `//` after the last row.
    private mutating func heading(_ node: MarkdownNode, level: Int) -> [RenderedLine] {
        let base = level <= 3 ? MarkdownStyle.heading : MarkdownStyle.minorHeading
        var lines = inlineLines(node, base: base)
        if level == 1 { lines = lines.map { StyledLine($0.spans.map { Span($0.text.uppercased(), $0.style) }) } }
        if !lines.isEmpty { lines[lines.count - 1].append("//", MarkdownStyle.headingMark) }
        return lines.map { RenderedLine($0) }
    }

    /// The quoted blocks behind a bar on every row, in the quote's soft italic (colours the
    /// text chose itself, links and code, kept).
    private mutating func blockQuote(_ node: MarkdownNode, listDepth: Int) -> [RenderedLine] {
        let bar = StyledLine((glyphs.isUnicode ? "▎" : "|") + " ", MarkdownStyle.quoteBar)
        let inner = blocks(node.children, listDepth: listDepth).map { line -> RenderedLine in
            var l = line
            l.content = StyledLine(
                l.content.spans.map {
                    Span($0.text, $0.style.layered(MarkdownStyle.quoteText, keepForeground: $0.style.fg != .body))
                })
            return l
        }
        return indent(inner, first: bar, rest: bar)
    }

    /// Items behind their marker (a bullet by depth, a right-aligned number, or a task box),
    /// the item's further rows under its text.
    private mutating func list(
        _ node: MarkdownNode, ordered: Bool, start: Int, tight: Bool, listDepth: Int
    ) -> [RenderedLine] {
        var out: [RenderedLine] = []
        let lastNumber = start + node.children.count - 1
        let numberWidth = CellWidth.of("\(lastNumber).")
        for (i, item) in node.children.enumerated() {
            if i > 0 && !tight { out.append(RenderedLine()) }
            let marker = itemMarker(
                item, ordered: ordered, number: start + i, numberWidth: numberWidth, depth: listDepth)
            let body = blocks(item.children, listDepth: listDepth + 1, tight: tight)
            let pad = StyledLine(String(repeating: " ", count: marker.width))
            out += indent(body.isEmpty ? [RenderedLine()] : body, first: marker, rest: pad)
        }
        return out
    }

    /// An item's marker: its number or the bullet of its depth; a task item's box stands in
    /// for the bullet (and follows a number).
    private func itemMarker(_ item: MarkdownNode, ordered: Bool, number: Int, numberWidth: Int, depth: Int)
        -> StyledLine
    {
        var marker: StyledLine
        if ordered {
            let n = "\(number)."
            marker = StyledLine(
                String(repeating: " ", count: max(0, numberWidth - CellWidth.of(n))) + n + " ", MarkdownStyle.marker)
        } else {
            let bullets = glyphs.isUnicode ? ["•", "◦", "▪"] : ["*", "-", "+"]
            marker = StyledLine(bullets[depth % 3] + " ", MarkdownStyle.marker)
        }
        guard case .item(let checked?) = item.kind else { return marker }
        let box = glyphs.isUnicode ? (checked ? "☑ " : "☐ ") : (checked ? "[x] " : "[ ] ")
        let boxStyle = checked ? MarkdownStyle.checked : MarkdownStyle.muted
        if ordered { marker.append(box, boxStyle) } else { marker = StyledLine(box, boxStyle) }
        return marker
    }

    /// Raw HTML as the muted text it is, a row per line.
    private func htmlBlock(_ html: String) -> [RenderedLine] {
        var lines = html.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines.map { RenderedLine(StyledLine($0, MarkdownStyle.muted), wrap: .characters) }
    }

    /// Child blocks one after another, a blank line between them (none inside tight lists).
    private mutating func blocks(_ nodes: [MarkdownNode], listDepth: Int, tight: Bool = false) -> [RenderedLine] {
        var out: [RenderedLine] = []
        for (i, child) in nodes.enumerated() {
            if i > 0 && !tight { out.append(RenderedLine()) }
            out += renderBlock(child, listDepth: listDepth)
        }
        return out
    }

    /// Puts `first` before the first line's gutter and `rest` before every other row.
    private func indent(_ lines: [RenderedLine], first: StyledLine, rest: StyledLine) -> [RenderedLine] {
        lines.enumerated().map { i, line in
            var l = line
            l.prefix = (i == 0 ? first : rest) + line.prefix
            l.hanging = rest + line.hanging
            return l
        }
    }

    /// The cells of a table as one line each (a break inside a cell becomes a space).
    private mutating func tableRows(_ table: MarkdownNode) -> [[StyledLine]] {
        table.children.map { row in
            var header = false
            if case .tableRow(header: true) = row.kind { header = true }
            return row.children.prefix(TableRenderer.maximumColumns).map { cell in
                let parts = inlineLines(cell, base: header ? MarkdownStyle.tableHeader : MarkdownStyle.body)
                return parts.dropFirst().reduce(parts.first ?? StyledLine()) { $0 + StyledLine(" ") + $1 }
            }
        }
    }

    // MARK: Inline content

    /// The inline children of `node` as lines: soft and hard breaks both end a line (output
    /// is read as it was written, as chat messages are).
    mutating func inlineLines(_ node: MarkdownNode, base: CellStyle) -> [StyledLine] {
        var lines: [StyledLine] = [StyledLine()]
        inline(node.children, style: base, into: &lines)
        return lines
    }

    private mutating func inline(_ nodes: [MarkdownNode], style: CellStyle, into lines: inout [StyledLine]) {
        for node in nodes {
            switch node.kind {
            case .text(let t): lines[lines.count - 1].append(t, style)
            case .softBreak, .lineBreak: lines.append(StyledLine())
            case .code(let c):
                lines[lines.count - 1].append(" " + c + " ", style.layered(MarkdownStyle.inlineCode))
            case .htmlInline(let h):
                // A tag may span lines (`<a\nhref=…>`); a row never holds a newline.
                lines[lines.count - 1].append(h.replacingOccurrences(of: "\n", with: " "), MarkdownStyle.muted)
            case .emphasis:
                var s = style
                s.attributes.insert(.italic)
                inline(node.children, style: s, into: &lines)
            case .strong:
                inline(
                    node.children, style: style.layered(MarkdownStyle.strong, keepForeground: style.fg != .body),
                    into: &lines)
            case .strikethrough:
                inline(node.children, style: style.layered(MarkdownStyle.struck), into: &lines)
            case .link(let url), .image(let url):
                var isImage = false
                if case .image = node.kind { isImage = true }
                link(node, url: url, isImage: isImage, style: style, into: &lines)
            default:
                inline(node.children, style: style, into: &lines)
            }
        }
    }

    /// A link's text in the link style, carrying the number it gets (`[n]` after it, the URL
    /// under the block); an image is its alt text after `image: `. A bare URL (autolink) is
    /// already readable and gets no number; a link without text shows its URL.
    private mutating func link(
        _ node: MarkdownNode, url: String, isImage: Bool, style: CellStyle, into lines: inout [StyledLine]
    ) {
        var textLines: [StyledLine] = [StyledLine()]
        var linkStyle = style.layered(MarkdownStyle.link)
        if style.fg != .body { linkStyle.fg = style.fg }
        inline(node.children, style: linkStyle, into: &textLines)
        let shown = textLines.map(\.text).joined(separator: " ")
        let numbered = !shown.isEmpty && shown != url && !url.isEmpty
        if numbered {
            // The text is the link: its cells carry the number the link gets below.
            let number = UInt32(clamping: links.count + 1)
            textLines = textLines.map { line in
                StyledLine(
                    line.spans.map { span in
                        var linked = span
                        linked.style.link = number
                        return linked
                    })
            }
        }
        if isImage { lines[lines.count - 1].append("image: ", MarkdownStyle.muted) }
        if shown.isEmpty { lines[lines.count - 1].append(url, linkStyle) }
        for (i, l) in textLines.enumerated() {
            if i > 0 { lines.append(StyledLine()) }
            lines[lines.count - 1].append(l)
        }
        if numbered {
            let number = links.count + 1
            links.append(Link(number: number, url: url))
            lines[lines.count - 1].append("[\(number)]", MarkdownStyle.linkNumber)
        }
    }
}
