/// A Japanese term and its English gloss (docs/design.md, "Japanese terms and glosses").
public struct GlossTerm: Equatable, Hashable, Sendable {
    public var japanese: String
    public var english: String

    public static let control = GlossTerm(japanese: "支配する", english: "control")
    public static let directives = GlossTerm(japanese: "命令", english: "directives")
    public static let contracts = GlossTerm(japanese: "契約", english: "contracts")
    public static let listen = GlossTerm(japanese: "聴取", english: "listen")
    public static let history = GlossTerm(japanese: "史料", english: "history")

    public static let glossary: [GlossTerm] = [.control, .directives, .contracts, .listen, .history]
}

/// Renders a term with its gloss: the Japanese always, the English only while revealed.
/// Without a UTF-8 locale the Japanese cannot be drawn, so the English is shown instead.
public enum GlossText {
    public static let termStyle = CellStyle(fg: .foreground, attributes: .bold)
    public static let glossStyle = CellStyle(fg: .accent)

    /// `reserve` keeps the gloss's cells (blank) while hidden, so the layout does not move.
    public static func line(_ term: GlossTerm, context: RenderContext, reserve: Bool = false) -> StyledLine {
        guard context.glyphs.isUnicode else { return StyledLine(term.english, glossStyle) }
        var line = StyledLine(term.japanese, termStyle)
        if context.glossRevealed {
            line.append(" ", .plain)
            line.append(term.english, glossStyle)
        } else if reserve {
            line.append(String(repeating: " ", count: 1 + CellWidth.of(term.english)), .plain)
        }
        return line
    }
}
