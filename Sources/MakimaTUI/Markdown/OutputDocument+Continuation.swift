/// How an open block that reached its bound goes on, so that what is parsed again per frame
/// stays bounded however long a paragraph or a code block streams without closing.
///
/// The block so far is drawn as it stands, and the lines after the cut are parsed under a
/// stand-in line whose row is not drawn: `x` for a paragraph (the lines go on as paragraph
/// text: a lazy line stays text, an indented one is not code) and the block's opening fence
/// for a code block (the lines stay code, highlighted afresh from the cut, under the same
/// block number; the cut part is drawn without its bottom edge, the rest without its top).
/// Soft breaks are line breaks here, so a paragraph reads the same cut or not, but for inline
/// spans (emphasis, code, links) that cross a cut, and a link's numbered reference, drawn
/// under the part of the paragraph that holds it. Each cut falls on the finished line that
/// reached the bound, decided on the last unit (`settle` ran first), so it falls in the same
/// place however the text arrived.
extension OutputDocument {
    enum Continuation: Equatable {
        case paragraph
        case code(fence: String)

        var standIn: String {
            switch self {
            case .paragraph: "x"
            case .code(let fence): fence
            }
        }
    }

    /// Whether the open unit `lines` (`count` of them output, not stand-in) is one block to cut
    /// now: a paragraph at its line bound, or a fenced code block still open at its line or
    /// byte bound.
    static func openBlockCut(_ lines: [String], count: Int, bytes: Int) -> Continuation? {
        let blocks = MarkdownParser.parse(lines.joined(separator: "\n") + "\n").children
        guard blocks.count == 1, let block = blocks.first, block.startLine >= 1, block.startLine <= lines.count else {
            return nil
        }
        switch block.kind {
        case .paragraph where count >= maximumOpenParagraphLines:
            return .paragraph
        case .codeBlock where count >= maximumOpenCodeLines || bytes >= maximumTailBytes:
            let opening = lines[block.startLine - 1]
            // A fence opened on its first line, still open: the last line is no fence that
            // could have closed it (one that could not, the next line cuts instead).
            guard fenceMarker(opening) != nil, fenceMarker(lines[lines.count - 1]) == nil else { return nil }
            return .code(fence: opening)
        default:
            return nil
        }
    }

    /// The run of backticks or tildes a line starts with (after up to three spaces), if it is a fence.
    private static func fenceMarker(_ line: some StringProtocol) -> Substring? {
        let indent = line.prefix { $0 == " " }.count
        guard indent <= 3 else { return nil }
        let rest = Substring(line.dropFirst(indent))
        guard let c = rest.first, c == "`" || c == "~" else { return nil }
        let run = rest.prefix { $0 == c }
        return run.count >= 3 ? run : nil
    }
}
