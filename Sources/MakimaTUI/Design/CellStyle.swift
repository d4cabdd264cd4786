/// How one terminal cell is drawn: a foreground role, an optional background role (nil = the
/// cell keeps whatever background is behind it, usually the pane's), and attributes.
/// Roles, not colours: the resolved palette turns them into colour numbers at draw time, so a
/// theme or capability change never touches the cell buffer.
public struct CellStyle: Sendable, Hashable {
    public var fg: ColorRole
    public var bg: ColorRole?
    public var attributes: TextAttributes
    /// The number of the output link this cell shows (0: none): the backend may make such
    /// cells an OSC 8 hyperlink to `CellBuffer.hyperlinks[link - 1]` (see `Hyperlink`).
    public var link: UInt32 = 0

    public init(fg: ColorRole = .body, bg: ColorRole? = nil, attributes: TextAttributes = []) {
        self.fg = fg
        self.bg = bg
        self.attributes = attributes
    }

    /// Plain body text on the default background.
    public static let plain = CellStyle()
}
