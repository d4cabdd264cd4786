import CCmarkShim
import MakimaKit
import Synchronization

/// One node of a parsed markdown document, copied out of cmark-gfm's tree so the C tree can
/// be freed at once and the renderer works on plain values.
struct MarkdownNode: Sendable, Equatable {
    enum Alignment: Sendable, Equatable { case left, center, right, none }

    enum Kind: Sendable, Equatable {
        case document
        case blockQuote
        case list(ordered: Bool, start: Int, tight: Bool)
        case item(checked: Bool?)
        case codeBlock(info: String, literal: String)
        case htmlBlock(String)
        case paragraph
        case heading(level: Int)
        case thematicBreak
        case table(alignments: [Alignment])
        case tableRow(header: Bool)
        case tableCell
        case text(String)
        case softBreak
        case lineBreak
        case code(String)
        case htmlInline(String)
        case emphasis
        case strong
        case strikethrough
        case link(url: String)
        case image(url: String)
        case other
    }

    var kind: Kind
    var children: [MarkdownNode] = []
    /// 1-based source lines (cmark's `start_line` / `end_line`).
    var startLine = 0
    var endLine = 0
}

/// Bytes handed to the parser (`MarkdownParser.meter`).
final class ParseMeter: Sendable {
    private let total = Atomic<Int>(0)
    var bytes: Int { total.load(ordering: .relaxed) }
    func add(_ n: Int) { total.add(n, ordering: .relaxed) }
}

/// Parses markdown with cmark-gfm (tables, strikethrough, task lists, autolinks).
enum MarkdownParser {
    /// cmark-gfm keeps process-wide state that parsers change: the registered extensions
    /// behind a plain flag, and the table of special inline characters, which attaching an
    /// extension adds to (`~`, `|`) and freeing a parser takes out again. Two threads parsing
    /// at once (the UI and a test, two tests) could lose the other's `~~strike~~`, so one
    /// parse runs at a time.
    private static let cmarkState = Mutex(())

    /// The document node of `text`. cmark never fails on input; an allocation failure gives
    /// an empty document.
    static func parse(_ text: String) -> MarkdownNode {
        meter?.add(text.utf8.count)
        return cmarkState.withLock { _ in parseAlone(text) }
    }

    /// Counts the bytes parsed inside `$meter.withValue`: a test's measure of the work one more
    /// piece of output costs, whatever else parses at the same time.
    @TaskLocal static var meter: ParseMeter?

    private static func parseAlone(_ text: String) -> MarkdownNode {
        guard let parser = mk_cmark_gfm_parser() else { return MarkdownNode(kind: .document) }
        defer { cmark_parser_free(parser) }
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { buf in
            buf.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                cmark_parser_feed(parser, $0, buf.count)
            }
        }
        guard let root = cmark_parser_finish(parser) else { return MarkdownNode(kind: .document) }
        defer { cmark_node_free(root) }
        return convert(root, depth: 0)
    }

    /// Nesting is bounded: a hostile document of thousands of `>` would otherwise recurse
    /// that deep here and in the renderer. Deeper content is dropped.
    static let maximumDepth = 48

    private static func convert(_ node: OpaquePointer, depth: Int) -> MarkdownNode {
        var out = MarkdownNode(
            kind: kind(of: node), startLine: Int(cmark_node_get_start_line(node)),
            endLine: Int(cmark_node_get_end_line(node)))
        guard depth < maximumDepth else { return out }
        // Neighbouring text nodes (cmark makes one per character reference) are joined before
        // cleaning, so `&#27;]2;title&#7;` goes as a whole OSC, as it would have raw.
        var text: String?
        var child = cmark_node_first_child(node)
        while let c = child {
            let converted = convert(c, depth: depth + 1)
            if case .text(let piece) = converted.kind {
                if text == nil { text = piece } else { text?.append(piece) }
            } else {
                if let joined = text { out.children.append(MarkdownNode(kind: .text(cleanInline(joined)))) }
                text = nil
                out.children.append(converted)
            }
            child = cmark_node_next(c)
        }
        if let joined = text { out.children.append(MarkdownNode(kind: .text(cleanInline(joined)))) }
        return out
    }

    /// What the parser produces is not what arrived: it decodes character references
    /// (`&#27;`, `&#x9b;`, `&#10;`), so its strings are cleaned again with the rule for server
    /// text. Inline text is one row: a decoded newline becomes a space.
    private static func cleanInline(_ s: String) -> String {
        let cleaned = UntrustedText.clean(s)
        return cleaned.utf8.contains(0x0A) ? cleaned.replacingOccurrences(of: "\n", with: " ") : cleaned
    }

    private static func string(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }

    /// A string of an inline node or attribute (code span, URL, info string, HTML), cleaned.
    private static func inlineString(_ p: UnsafePointer<CChar>?) -> String { cleanInline(string(p)) }

    private static func kind(of node: OpaquePointer) -> MarkdownNode.Kind {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST:
            return .list(
                ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                start: Int(cmark_node_get_list_start(node)), tight: cmark_node_get_list_tight(node) != 0)
        case CMARK_NODE_ITEM:
            // A task-list item is an item the tasklist extension claimed.
            guard string(cmark_node_get_type_string(node)) == "tasklist" else { return .item(checked: nil) }
            return .item(checked: cmark_gfm_extensions_get_tasklist_item_checked(node))
        case CMARK_NODE_CODE_BLOCK:
            return .codeBlock(
                info: inlineString(cmark_node_get_fence_info(node)),
                literal: UntrustedText.clean(string(cmark_node_get_literal(node))))
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock(UntrustedText.clean(string(cmark_node_get_literal(node))))
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading(level: Int(cmark_node_get_heading_level(node)))
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_TEXT: return .text(string(cmark_node_get_literal(node)))
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code(inlineString(cmark_node_get_literal(node)))
        case CMARK_NODE_HTML_INLINE: return .htmlInline(UntrustedText.clean(string(cmark_node_get_literal(node))))
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK: return .link(url: inlineString(cmark_node_get_url(node)))
        case CMARK_NODE_IMAGE: return .image(url: inlineString(cmark_node_get_url(node)))
        default: return extensionKind(of: node)
        }
    }

    /// The extensions' node types are registered at run time: they are told apart by name.
    private static func extensionKind(of node: OpaquePointer) -> MarkdownNode.Kind {
        switch string(cmark_node_get_type_string(node)) {
        case "table":
            let columns = Int(cmark_gfm_extensions_get_table_columns(node))
            guard let raw = cmark_gfm_extensions_get_table_alignments(node) else {
                return .table(alignments: Array(repeating: .none, count: columns))
            }
            return .table(
                alignments: (0..<columns).map {
                    switch raw[$0] {
                    case UInt8(ascii: "l"): return .left
                    case UInt8(ascii: "c"): return .center
                    case UInt8(ascii: "r"): return .right
                    default: return .none
                    }
                })
        case "table_header": return .tableRow(header: true)
        case "table_row": return .tableRow(header: cmark_gfm_extensions_get_table_row_is_header(node) != 0)
        case "table_cell": return .tableCell
        case "strikethrough": return .strikethrough
        case "tasklist": return .item(checked: cmark_gfm_extensions_get_tasklist_item_checked(node))
        default: return .other
        }
    }
}
