/// The box-drawing and symbol characters the chrome uses, with an ASCII set for terminals
/// whose locale is not UTF-8 (where ncurses would draw every non-ASCII cell blank).
public struct Glyphs: Equatable, Sendable {
    public var dashHorizontal: String
    public var dashVertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    public var ruleHorizontal: String
    public var ellipsis: String
    public var separatorDot: String
    public var logoMark: String
    public var bullet: String
    public var gridDot: String
    public var navDivider: String
    public var selectionMarker: String
    /// A stored profile's mark on MESHES//, drawn in the profile's accent.
    public var swatch: String
    public var isUnicode: Bool

    public static let unicode = Glyphs(
        dashHorizontal: "┄", dashVertical: "┆",
        topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯",
        ruleHorizontal: "─", ellipsis: "…", separatorDot: "·", logoMark: "◎", bullet: "●",
        gridDot: "·", navDivider: "│", selectionMarker: "▸", swatch: "■", isUnicode: true)

    public static let ascii = Glyphs(
        dashHorizontal: "-", dashVertical: "|",
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        ruleHorizontal: "-", ellipsis: "~", separatorDot: ".", logoMark: "@", bullet: "*",
        gridDot: ".", navDivider: "|", selectionMarker: ">", swatch: "#", isUnicode: false)
}
