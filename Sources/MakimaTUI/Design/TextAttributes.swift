/// Terminal text attributes. They stand in for font weights and styles, which a terminal
/// does not have (docs/design.md, "Typography"). The renderer turns them into curses attributes.
public struct TextAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let reverse = TextAttributes(rawValue: 1 << 2)
    public static let underline = TextAttributes(rawValue: 1 << 3)
    public static let italic = TextAttributes(rawValue: 1 << 4)
}
