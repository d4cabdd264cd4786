/// A profile's mark in 16 colours. Its colour is the profile's own (`#ff5f5f` for production),
/// which no fixed table can know, so it takes the nearest of the six hues by CIEDE2000 against
/// xterm's default values (each terminal theme shifts them, but red stays red). Dark themes
/// choose among the normal and bright hues, light themes among the normal ones (the bright
/// ones are pale on white); without bright colours a bright hue becomes normal + bold.
extension Ansi16Mapping {
    public static func mark(_ rgb: RGB, lightTheme: Bool, hasBrightColors: Bool) -> AnsiRoleColor {
        let target = LabColor(rgb)
        let candidates = lightTheme ? hues.filter { !$0.color.isBright } : hues
        let nearest =
            candidates.min { ColorScience.deltaE2000(target, $0.lab) < ColorScience.deltaE2000(target, $1.lab) }?.color
            ?? (lightTheme ? .blue : .brightBlue)
        return adapted(
            AnsiRoleColor(nearest), background: false, lightTheme: lightTheme, hasBrightColors: hasBrightColors)
    }

    /// xterm's defaults for the hues (black, white and greys are left out: a mark in them would
    /// vanish into the background or read as plain text).
    private static let hues: [(color: AnsiColor, lab: LabColor)] = {
        let values: [(AnsiColor, UInt32)] = [
            (.red, 0xCD0000), (.green, 0x00CD00), (.yellow, 0xCDCD00), (.blue, 0x0000EE), (.magenta, 0xCD00CD),
            (.cyan, 0x00CDCD), (.brightRed, 0xFF0000), (.brightGreen, 0x00FF00), (.brightYellow, 0xFFFF00),
            (.brightBlue, 0x5C5CFF), (.brightMagenta, 0xFF00FF), (.brightCyan, 0x00FFFF),
        ]
        return values.map { (color: $0.0, lab: LabColor(RGB(hex: $0.1))) }
    }()
}
