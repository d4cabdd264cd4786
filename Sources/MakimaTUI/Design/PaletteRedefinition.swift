/// One palette entry to redefine on a 256-colour terminal that can change colours
/// (`init_extended_color(index, red, green, blue)`, components 0...1000).
public struct PaletteRedefinition: Sendable, Hashable {
    public var index: Int
    public var rgb: RGB
    /// `rgb` scaled to curses' 0...1000 by `(v * 1000 + 254) / 255`. Rounding up matters:
    /// ncurses scales back down with truncation, so plain `v * 1000 / 255` turns #0c1729 into
    /// #0b1628.
    public var red: Int16 { Self.cursesComponent(rgb.r) }
    public var green: Int16 { Self.cursesComponent(rgb.g) }
    public var blue: Int16 { Self.cursesComponent(rgb.b) }

    public init(index: Int, rgb: RGB) {
        self.index = index
        self.rgb = rgb
    }

    public static func cursesComponent(_ value: UInt8) -> Int16 {
        Int16((Int(value) * 1000 + 254) / 255)
    }

    /// The entries for `theme`: one index per distinct colour, each the colour's nearest
    /// xterm-256 index or, if another colour took it, the next nearest free one. Redefining
    /// the index a colour is already closest to means that if the program dies without
    /// restoring the palette, the terminal is left with near-identical colours.
    public static func plan(for theme: Theme) -> [PaletteRedefinition] {
        var taken: [Int: RGB] = [:]
        var entries: [PaletteRedefinition] = []
        for role in ColorRole.allCases {
            let rgb = theme.color(role)
            if taken.values.contains(rgb) { continue }
            let candidates = Xterm256.nearestIndices(to: rgb, count: Xterm256.searchable.count)
            guard let index = candidates.first(where: { taken[$0] == nil }) else { continue }
            taken[index] = rgb
            entries.append(PaletteRedefinition(index: index, rgb: rgb))
        }
        return entries
    }
}
