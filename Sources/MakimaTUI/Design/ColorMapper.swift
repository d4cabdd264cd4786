/// Builds the `ResolvedPalette` of a theme for a terminal capability.
/// - direct: the blended RGB of each role as `(r << 16) | (g << 8) | b`;
/// - palette256: the nearest index in 16–255 by CIEDE2000 (`Xterm256.nearestIndex`), or with
///   `redefineColors` the indices of `PaletteRedefinition.plan`, which then show exact colours;
/// - palette16: `Ansi16Mapping` (dark or light family by the theme's background; a profile's
///   mark, the nearest hue: `Ansi16Mapping.mark`);
/// - none: no numbers; muted roles add dim and warn/danger add bold so they still stand out
///   (a mark is plain).
public enum ColorMapper {
    public static func palette(
        for theme: Theme,
        capability: ColorCapability,
        hasBrightColors: Bool = true,
        redefineColors: Bool = false
    ) -> ResolvedPalette {
        var numbers: [ColorRole: Int] = [:]
        var extras: [ColorRole: TextAttributes] = [:]
        var redefinitions: [PaletteRedefinition] = []
        switch capability {
        case .direct:
            for role in ColorRole.allCases { numbers[role] = directColorNumber(theme.color(role)) }
        case .palette256:
            if redefineColors {
                redefinitions = PaletteRedefinition.plan(for: theme)
                let indexByColor = Dictionary(
                    redefinitions.map { ($0.rgb, $0.index) }, uniquingKeysWith: { first, _ in first })
                for role in ColorRole.allCases {
                    let rgb = theme.color(role)
                    numbers[role] = indexByColor[rgb] ?? Xterm256.nearestIndex(to: rgb)
                }
            } else {
                for role in ColorRole.allCases { numbers[role] = Xterm256.nearestIndex(to: theme.color(role)) }
            }
        case .palette16:
            for role in ColorRole.allCases {
                let light = theme.isLight
                let entry =
                    if case .mesh = role {
                        Ansi16Mapping.mark(theme.color(role), lightTheme: light, hasBrightColors: hasBrightColors)
                    } else {
                        Ansi16Mapping.color(for: role, lightTheme: light, hasBrightColors: hasBrightColors)
                    }
                numbers[role] = entry.color.rawValue
                if !entry.attributes.isEmpty { extras[role] = entry.attributes }
            }
        case .none:
            for role in ColorRole.allCases {
                let attributes = attributesWithoutColor(role)
                if !attributes.isEmpty { extras[role] = attributes }
            }
        }
        return ResolvedPalette(
            capability: capability, theme: theme, numbers: numbers,
            extras: extras, redefinitions: redefinitions)
    }

    /// Builds the palette a detection calls for.
    public static func palette(for theme: Theme, detection: ColorDetection, redefineColors: Bool = false)
        -> ResolvedPalette
    {
        palette(
            for: theme, capability: detection.capability, hasBrightColors: detection.hasBrightColors,
            redefineColors: redefineColors && detection.canRedefineColors)
    }

    /// The direct-colour number of `rgb`. Direct terminfo entries read small numbers as palette
    /// indices (`xterm-direct`: below 8, `xterm-direct256`: below 256), so a colour with
    /// red = green = 0 gets green 1, an invisible change that keeps it RGB.
    public static func directColorNumber(_ rgb: RGB) -> Int {
        guard rgb.r == 0 && rgb.g == 0 else { return rgb.packed }
        return RGB(r: 0, g: 1, b: rgb.b).packed
    }

    /// What a role adds without colour: muted roles dim, alerts bold.
    public static func attributesWithoutColor(_ role: ColorRole) -> TextAttributes {
        switch role {
        case .foregroundMuted, .borderMuted: .dim
        case .warn, .danger: .bold
        // Text in the background's colour sits on a coloured fill (a pill, `? 2 QUESTIONS
        // WAITING`, a search match): without colour, reverse video is that fill.
        case .background: .reverse
        default: []
        }
    }
}
