import Foundation
import MakimaKit
import Testing

@_spi(Fuzzing) @testable import MakimaTUI

@Suite("Markdown in task output: each construct in cells")
struct MarkdownRenderTests {
    typealias F = MarkdownFixture

    /// The rendered lines of `markdown` as one assistant message.
    func render(_ markdown: String) -> [RenderedLine] { F.lines([F.output(1, markdown)]) }

    /// Style of the first cell showing `needle` in the rows of `markdown` at `width`.
    func style(of needle: String, in markdown: String, width: Int = 60) -> CellStyle? {
        let b = F.cells(render(markdown), width: width)
        for y in 0..<b.height {
            let line = b.line(y)
            guard let r = line.range(of: needle) else { continue }
            return b.style(atX: CellWidth.of(String(line[..<r.lowerBound])), y: y)
        }
        return nil
    }

    /// Found by the markdown fuzz target: an inline HTML tag spanning two lines kept its
    /// newline inside one row.
    @Test("an inline tag over two lines is drawn on one row without its newline")
    func inlineTagAcrossLines() {
        let rows = render("a <COMP\nLETION_GATE> b\n").flatMap { $0.rows(width: 60) }.map(\.text)
        #expect(!rows.contains { $0.contains("\n") })
        #expect(rows.contains { $0.contains("<COMP LETION_GATE>") })
    }

    @Test("headings: accent and bold with the cards' `//`, level 1 uppercased; no `#` left")
    func headings() {
        #expect(F.rows("# Release plan\n\n## Steps\n\n#### minor") == ["RELEASE PLAN//", "", "Steps//", "", "minor//"])
        #expect(style(of: "Steps", in: "## Steps") == CellStyle(fg: .accent, attributes: .bold))
        #expect(style(of: "//", in: "## Steps")?.fg == .foregroundMuted)
    }

    @Test("emphasis italic, strong bold, strike-through dimmed; the markers are gone")
    func emphasis() {
        let md = "plain *soft* **hard** ~~gone~~"
        #expect(F.rows(md) == ["plain soft hard gone"])
        #expect(style(of: "soft", in: md)?.attributes == .italic)
        #expect(style(of: "hard", in: md) == CellStyle(fg: .foreground, attributes: .bold))
        #expect(style(of: "gone", in: md)?.attributes.contains(.dim) == true)
        #expect(style(of: "plain", in: md) == CellStyle(fg: .body))
    }

    @Test("inline code is a pill on the panel colour, never broken at its inner spaces")
    func inlineCode() {
        let md = "run `swift test --filter Ledger` now"
        #expect(F.rows(md) == ["run  swift test --filter Ledger  now"])
        #expect(style(of: "swift", in: md)?.bg == .panel)
        // At 14 cells the words around the pill move, the pill's own spaces do not break.
        let rows = F.rows("aaaa `b c` dddd", width: 9)
        #expect(rows == ["aaaa", " b c", "dddd"])
    }

    @Test("prose wraps at word boundaries, a word longer than the row breaks between characters")
    func wordWrap() {
        #expect(F.rows("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
        #expect(F.rows("契約テストの確認 done", width: 8) == ["契約テス", "トの確認", "done"])
        #expect(F.rows("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
    }

    @Test("lists: bullets by depth, numbers right-aligned, task boxes, hanging indent on wrap")
    func lists() {
        let md = "- one\n- two\n  - nested\n\n9. nine\n10. ten\n\n- [x] done\n- [ ] todo item that wraps"
        #expect(
            F.rows(md, width: 16) == [
                "• one", "• two", "  ◦ nested", "", " 9. nine", "10. ten", "", "☑ done", "☐ todo item that", "  wraps",
            ])
        #expect(style(of: "•", in: md)?.fg == .accent)
        #expect(style(of: "☑", in: md)?.fg == .ok)
    }

    @Test("block quotes: a bar in borderMuted on every row, wrapped rows included")
    func quotes() {
        let md = "> quoted words that wrap\n> second"
        #expect(F.rows(md, width: 14) == ["▎ quoted words", "▎ that wrap", "▎ second"])
        #expect(style(of: "▎", in: md)?.fg == .borderMuted)
    }

    @Test("links: underlined, numbered, the URL under the block; a bare URL needs no number")
    func links() {
        let md = "See [the docs](https://example.com/docs) or <https://example.com/raw>."
        let lines = render(md)
        #expect(lines.map(\.text) == ["See the docs[1] or https://example.com/raw.", "[1] https://example.com/docs"])
        #expect(style(of: "the docs", in: md)?.attributes.contains(.underline) == true)
        var r = MarkdownRenderer(glyphs: .unicode)
        _ = r.render(MarkdownParser.parse(md).children[0])
        #expect(r.links == [MarkdownRenderer.Link(number: 1, url: "https://example.com/docs")])
    }

    @Test("tables: columns aligned in cells with CJK counted two, header rule, never wrapped, scrolled sideways")
    func tables() {
        let md = "| Name | 幅 | Note |\n|:--|--:|:-:|\n| 契約 | 12 | ok |\n| a | 3 | longer |"
        #expect(F.rows(md) == ["Name │ 幅 │  Note", "─────┼────┼───────", "契約 │ 12 │   ok", "a    │  3 │ longer"])
        let lines = render(md)
        #expect(lines.allSatisfy { $0.rows(width: 8).count == 1 })
        #expect(lines[2].rows(width: 8, scrollX: 5).first?.text == "│ 12 │  ")
        #expect(style(of: "Name", in: md) == CellStyle(fg: .foreground, attributes: .bold))
    }

    @Test("a thematic break is a dashed rule across the view")
    func thematicBreak() {
        #expect(
            F.rows("above\n\n---\n\nbelow", width: 12) == ["above", "", String(repeating: "┄", count: 12), "", "below"])
    }

    @Test("fenced code: frame with the language chip, no wrap, sideways scroll, tabs by cells")
    func codeFrame() {
        let md = "```swift\nlet total = 42 // answer\n\t契\tx\n```"
        #expect(
            F.rows(md, width: 30) == [
                "╭┄  SWIFT  " + String(repeating: "┄", count: 18) + "╮", "┆ let total = 42 // answer   ┆",
                "┆     契  x                  ┆",
                "╰┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄╯",
            ])
        let lines = render(md)
        #expect(lines[1].rows(width: 12).map(\.text) == ["┆ let tota ┆"])
        #expect(lines[1].rows(width: 12, scrollX: 4).map(\.text) == ["┆ total =  ┆"])
        #expect(style(of: "SWIFT", in: md)?.bg == .panel)
        #expect(F.rows("```\nplain\n```", width: 12).first == "╭┄  CODE  ┄╮")
    }

    @Test("the highlighter colours keywords, strings, comments, numbers and types on the palette")
    func swiftColours() {
        var h = CodeHighlighter(syntax: LanguageSyntax.forInfo("swift"))
        let line = h.highlight(#"let x: Int = 42 + f("hi") // note"#)
        func role(_ s: String) -> CellStyle? { line.spans.first { $0.text.contains(s) }?.style }
        #expect(role("let") == CodeToken.keyword.style)
        #expect(role("Int") == CodeToken.type.style)
        #expect(role("42") == CodeToken.number.style)
        #expect(role("\"hi\"") == CodeToken.string.style)
        #expect(role("// note") == CodeToken.comment.style)
        #expect(line.text == #"let x: Int = 42 + f("hi") // note"#)
        // A block comment carries to the next line.
        var c = CodeHighlighter(syntax: LanguageSyntax.forInfo("swift"))
        _ = c.highlight("/* open")
        #expect(c.highlight("still */ let").spans.first == Span("still */", CodeToken.comment.style))
    }

    @Test(
        "one table entry per language: Rust, Python, TypeScript/JavaScript, shell, JSON, YAML, diff",
        arguments: [
            (
                "rust", "fn main() { let v: Vec<u8> = vec![]; } // c",
                ["fn": CodeToken.keyword, "Vec": .type, "// c": .comment]
            ),
            ("python", "def f(x): return None  # c", ["def": .keyword, "None": .number, "# c": .comment]),
            ("ts", "const s: string = `t`; // c", ["const": .keyword, "string": .type, "`t`": .string]),
            ("js", "if (a === 1) { return 'x' }", ["if": .keyword, "1": .number, "'x'": .string]),
            ("bash", "export PATH=$HOME/bin # c", ["export": .keyword, "$HOME": .variable, "# c": .comment]),
            (
                "json", #"{"name": "x", "n": 3, "ok": true}"#,
                [#""name""#: .key, #""x""#: .string, "3": .number, "true": .number]
            ),
            ("yaml", "  retries: 3 # c", ["retries": .key, "3": .number, "# c": .comment]),
        ] as [(String, String, [String: CodeToken])])
    func languages(_ info: String, _ code: String, _ expected: [String: CodeToken]) {
        var h = CodeHighlighter(syntax: LanguageSyntax.forInfo(info))
        let line = h.highlight(code)
        #expect(line.text == code)
        for (needle, token) in expected {
            #expect(line.spans.first { $0.text == needle }?.style == token.style, "\(info): \(needle)")
        }
    }

    @Test("diff: added lines in ok, removed in danger, hunks in accent")
    func diff() {
        var h = CodeHighlighter(syntax: LanguageSyntax.forInfo("diff"))
        #expect(h.highlight("+added").spans.first?.style.fg == .ok)
        #expect(h.highlight("-removed").spans.first?.style.fg == .danger)
        #expect(h.highlight("@@ -1 +1 @@").spans.first?.style.fg == .accent)
        #expect(h.highlight(" context").spans.first?.style.fg == .body)
        #expect(LanguageSyntax.chip(forInfo: "patch") == "DIFF")
        #expect(LanguageSyntax.chip(forInfo: "kotlin") == "KOTLIN")
    }

    @Test("raw markdown never reaches the cells: no #, **, backticks or fences in the sample")
    func noRawMarkup() {
        let rows = F.rows(F.sample, width: 80)
        let all = rows.joined(separator: "\n")
        for raw in ["**", "```", "## ", "`", "<COMPLETION_GATE>", "~~", "- [x]"] {
            #expect(!all.contains(raw), "\(raw)")
        }
        #expect(F.cells(render(F.sample), width: 80).isWellFormed)
    }
}

@Suite("Markdown in task output: hostile and odd input")
struct MarkdownHostileTests {
    typealias F = MarkdownFixture

    @Test("SGR and tabs in the assistant's text: colours dropped, tabs expanded by cells, no control reaches a cell")
    func controlsNeverReachCells() {
        let lines = F.lines([
            F.output(1, "\u{1B}[31mred\u{1B}[0m **bold**\n\n契\tx\n"), F.output(2, "契\tx\n", stream: "tool"),
        ])
        #expect(lines.map(\.text) == ["red bold", "", "契  x", "", "▏ 契      x"])
        for line in lines {
            for span in line.prefix.spans + line.content.spans {
                #expect(!span.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(span.text)")
            }
        }
    }

    @Test("thousands of nested quotes and lists render within the depth bound")
    func deepNesting() {
        let quotes = String(repeating: ">", count: 5000) + " deep\n"
        let lines = F.lines([F.output(1, quotes + "\nafter\n")])
        #expect(lines.last?.text == "after")
        #expect(lines.allSatisfy { $0.prefix.width <= 2 * MarkdownParser.maximumDepth })
        let list = (0..<300).map { String(repeating: "  ", count: $0) + "- item \($0)" }.joined(separator: "\n")
        #expect(!F.lines([F.output(1, list + "\n")]).isEmpty)
    }

    @Test("an unterminated fence streams as code and keeps the tail bounded")
    func unterminatedFence() {
        var buffer = TaskOutputBuffer(capacity: 100_000)
        var conv = TaskOutputLines()
        buffer.append([F.output(1, "```swift\n")])
        for i in 0..<50 { buffer.append([F.output(i + 2, "let x\(i) = \(i)\n")]) }
        let lines = conv.lines(of: buffer)
        #expect(lines.first?.text.contains("SWIFT") == true)
        #expect(lines.filter { $0.codeBlock == 1 }.count == 52)
    }
}

@Suite("Markdown in task output: ASCII terminals")
struct MarkdownASCIITests {
    @Test("with the ASCII glyphs every frame, bullet, bar, box and rule the renderer adds is ASCII")
    func asciiChrome() {
        var buffer = TaskOutputBuffer()
        buffer.append([
            MarkdownFixture.output(
                1,
                MarkdownFixture.sample.replacingOccurrences(of: "幅", with: "w").replacingOccurrences(
                    of: "契約", with: "ct")),
            MarkdownFixture.output(2, "log\n", stream: "tool"),
        ])
        var conv = TaskOutputLines(glyphs: .ascii)
        let lines = conv.lines(of: buffer)
        let rows = lines.flatMap { $0.rows(width: 50) }
        for row in rows { #expect(row.text.allSatisfy { $0.isASCII }, "\(row.text)") }
        #expect(rows.contains { $0.text.hasPrefix("+- ") && $0.text.contains(" SWIFT ") })
        #expect(rows.contains { $0.text.hasPrefix("[x] write the failing test") })
        #expect(rows.contains { $0.text.hasPrefix("| quoted text") })
    }
}
