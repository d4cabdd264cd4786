/// Turns task output that `UntrustedText.cleanKeepingSGR` cleaned (plain text plus SGR in the
/// normal form `ESC [ digits;… m`) into styled lines. Colours go through the design system's
/// `SGRState`, so output can only ever show palette roles; everything else about a sequence is
/// dropped. Feed chunks as they arrive: the SGR state and the unfinished last line carry over.
public struct StyledTextBuilder: Sendable {
    public private(set) var lines: [StyledLine] = []
    /// The line still being written (no newline yet).
    public private(set) var current = StyledLine()
    private var sgr: SGRState

    public init(base: CellStyle = CellStyle(fg: .body)) {
        sgr = SGRState(base: base)
    }

    /// Every line so far, the unfinished one included when it has text.
    public var allLines: [StyledLine] { current.spans.isEmpty ? lines : lines + [current] }

    /// The style the next text will get.
    public var style: CellStyle { sgr.style }

    public mutating func append(_ cleaned: String) {
        var text = ""
        var scalars = cleaned.unicodeScalars[...]
        func flushText() {
            current.append(text, sgr.style)
            text = ""
        }
        while let v = scalars.popFirst() {
            switch v {
            case "\n":
                flushText()
                lines.append(current)
                current = StyledLine()
            case "\u{1B}":
                flushText()
                // Only `[ params m` is honoured; a malformed sequence loses just its ESC, and an
                // unfinished one (a chunk cut inside it, see `cleanKeepingSGR`) is dropped whole.
                guard scalars.first == "[" else { continue }
                let body = scalars.dropFirst().prefix { ("0"..."9").contains($0) || $0 == ";" }
                let end = scalars.index(scalars.startIndex, offsetBy: 1 + body.count)
                guard end < scalars.endIndex, scalars[end] == "m" else {
                    if end == scalars.endIndex || scalars[end] == "\n" { scalars = scalars[end...] }
                    continue
                }
                sgr.apply(String(String.UnicodeScalarView(body)))
                scalars = scalars[scalars.index(after: end)...]
            default:
                if v.value < 0x20 || (0x7F...0x9F).contains(v.value) { continue }
                text.unicodeScalars.append(v)
            }
        }
        flushText()
    }

    /// Hands over the finished lines, keeping the style and the open line: a consumer that
    /// converts a long stream a line at a time need not hold all of it here.
    public mutating func takeLines() -> [StyledLine] {
        defer { lines.removeAll() }
        return lines
    }

    /// All lines of `cleaned` at once.
    public static func lines(_ cleaned: String, base: CellStyle = CellStyle(fg: .body)) -> [StyledLine] {
        var b = StyledTextBuilder(base: base)
        b.append(cleaned)
        return b.allLines
    }
}
