/// A `CellStyle` turned into what the renderer hands to ncurses.
public struct ResolvedCellStyle: Sendable, Hashable {
    /// Colour number for `init_extended_pair`; nil = the terminal's default (-1), as under
    /// `.none`, or no background requested.
    public var fg: Int?
    public var bg: Int?
    public var attributes: TextAttributes
}

/// A theme resolved for one terminal capability: the ncurses colour number of every role,
/// and the attributes a role adds when it is the foreground (e.g. dim for muted text in
/// 16 colours or without colour). Build it with `ColorMapper`.
public struct ResolvedPalette: Sendable, Hashable {
    public let capability: ColorCapability
    public let theme: Theme
    /// Entries to redefine with `init_extended_color` before drawing; empty unless the palette
    /// was built with `redefineColors` on a terminal that allows it.
    public let redefinitions: [PaletteRedefinition]
    private let numbers: [ColorRole: Int]
    private let extras: [ColorRole: TextAttributes]

    init(
        capability: ColorCapability, theme: Theme, numbers: [ColorRole: Int],
        extras: [ColorRole: TextAttributes], redefinitions: [PaletteRedefinition]
    ) {
        self.capability = capability
        self.theme = theme
        self.numbers = numbers
        self.extras = extras
        self.redefinitions = redefinitions
    }

    /// The colour number for `role`: RGB packed (direct), 16–255 (256), 0–15 (16), nil (none).
    public func colorNumber(_ role: ColorRole) -> Int? { numbers[role] }

    /// Attributes to add when `role` is the foreground.
    public func extraAttributes(_ role: ColorRole) -> TextAttributes { extras[role] ?? [] }

    public func resolve(_ style: CellStyle) -> ResolvedCellStyle {
        ResolvedCellStyle(
            fg: colorNumber(style.fg),
            bg: style.bg.flatMap { colorNumber($0) },
            attributes: style.attributes.union(extraAttributes(style.fg))
        )
    }
}
