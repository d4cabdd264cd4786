/// The styles markdown is drawn in, on the palette (see `docs/design.md`'s roles).
enum MarkdownStyle {
    static let body = CellStyle(fg: .body)
    static let heading = CellStyle(fg: .accent, attributes: .bold)
    static let minorHeading = CellStyle(fg: .accent)
    /// The `//` after a heading, as in the cards' `SYSTEM//`.
    static let headingMark = CellStyle(fg: .foregroundMuted, attributes: .bold)
    static let strong = CellStyle(fg: .foreground, attributes: .bold)
    /// curses has no strike-through attribute: struck text is dimmed instead.
    static let struck = CellStyle(fg: .foregroundMuted, attributes: .dim)
    static let inlineCode = CellStyle(fg: .foreground, bg: .panel)
    static let link = CellStyle(fg: .accent, attributes: .underline)
    static let linkNumber = CellStyle(fg: .foregroundMuted)
    static let marker = CellStyle(fg: .accent)
    static let quoteBar = CellStyle(fg: .borderMuted)
    static let quoteText = CellStyle(fg: .bodySoft, attributes: .italic)
    static let rule = CellStyle(fg: .borderMuted)
    static let frame = CellStyle(fg: .borderMuted)
    static let chip = CellStyle(fg: .accent, bg: .panel, attributes: .bold)
    static let tableHeader = CellStyle(fg: .foreground, attributes: .bold)
    static let muted = CellStyle(fg: .foregroundMuted)
    static let checked = CellStyle(fg: .ok)
}

extension CellStyle {
    /// This style with `other`'s attributes added and, where `other` names them, its colours.
    func layered(_ other: CellStyle, keepForeground: Bool = false) -> CellStyle {
        var s = self
        if !keepForeground { s.fg = other.fg }
        if other.bg != nil { s.bg = other.bg }
        s.attributes.formUnion(other.attributes)
        return s
    }
}
