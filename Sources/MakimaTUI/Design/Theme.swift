/// A colour as a theme declares it: an RGB value and an opacity. Opacity is kept because the
/// makima palette defines two roles as translucent (`foregroundMuted`, `borderMuted`).
public struct ThemeColor: Sendable, Hashable {
    public var rgb: RGB
    /// 0...1; 1 is opaque.
    public var alpha: Double

    public init(_ rgb: RGB, alpha: Double = 1) {
        self.rgb = rgb
        self.alpha = alpha
    }

    public init(hex: UInt32, alpha: Double = 1) {
        self.init(RGB(hex: hex), alpha: alpha)
    }
}

/// A named palette: one colour for every `ColorRole`. Translucent roles are blended against
/// the theme's own background when the theme is built, so `color(_:)` is always opaque and is
/// what every terminal sees (a terminal cannot draw transparency).
public struct Theme: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    private let declared: [ThemeColor]
    private let opaque: [RGB]

    /// `colors` is asked once per role. Alpha is clamped to 0...1; the background is always
    /// taken as opaque because it is what the other roles blend against.
    public init(name: String, colors: (ColorRole) -> ThemeColor) {
        self.name = name
        var declared = ColorRole.allCases.map { role -> ThemeColor in
            var color = colors(role)
            color.alpha = min(max(color.alpha, 0), 1)
            return color
        }
        let backgroundIndex = Self.index(of: .background)
        declared[backgroundIndex].alpha = 1
        let background = declared[backgroundIndex].rgb
        self.declared = declared
        self.opaque = declared.map { $0.rgb.blend(alpha: $0.alpha, over: background) }
    }

    /// The colour to draw for `role`: opaque, translucency already blended over the background.
    public func color(_ role: ColorRole) -> RGB { opaque[Self.index(of: role)] }

    public subscript(role: ColorRole) -> RGB { color(role) }

    /// The colour as declared (before blending), e.g. accent @ 0.65 for foregroundMuted.
    public func declaredColor(_ role: ColorRole) -> ThemeColor { declared[Self.index(of: role)] }

    public var description: String { "Theme(\(name))" }

    /// True when the background is light (WCAG relative luminance above 0.4). Decides which
    /// 16-colour mapping the theme uses.
    public var isLight: Bool { ColorScience.relativeLuminance(color(.background)) > 0.4 }

    private static func index(of role: ColorRole) -> Int {
        // allCases is declaration order; firstIndex never fails for a case of the enum.
        ColorRole.allCases.firstIndex(of: role) ?? 0
    }
}
