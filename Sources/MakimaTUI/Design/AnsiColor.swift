/// The 16 ANSI colours by their standard numbers. Their RGB is whatever the terminal's theme
/// says, so mapping roles onto them is a fixed table (`Ansi16Mapping`), not a nearest search.
public enum AnsiColor: Int, Sendable, Hashable, CaseIterable {
    case black = 0
    case red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite

    public var isBright: Bool { rawValue >= 8 }

    /// The normal colour of a bright one (brightRed → red); a normal colour is returned as is.
    public var normal: AnsiColor { AnsiColor(rawValue: rawValue % 8) ?? self }
}

/// A role drawn in 16 colours: an ANSI colour plus attributes that keep it distinct or legible.
public struct AnsiRoleColor: Sendable, Hashable {
    public var color: AnsiColor
    public var attributes: TextAttributes

    public init(_ color: AnsiColor, _ attributes: TextAttributes = []) {
        self.color = color
        self.attributes = attributes
    }
}

/// The documented role → ANSI table (docs/themes.md). Two families, chosen by the theme's
/// background: dark themes paint black and write light colours, light themes the reverse.
/// Bright colours are used where the palette colour is light (the palette's status colours are
/// Tailwind 400 shades), because the normal ones are dark on many terminals.
public enum Ansi16Mapping {
    public static func dark(_ role: ColorRole) -> AnsiRoleColor {
        switch role {
        case .background, .panel, .backgroundDeep: AnsiRoleColor(.black)
        case .foreground: AnsiRoleColor(.brightWhite)
        // A mark is placed by its colour (`mark`); the accent's entry is only its default.
        case .accent, .mesh: AnsiRoleColor(.brightBlue)
        case .body, .bodySoft: AnsiRoleColor(.white)
        case .foregroundMuted: AnsiRoleColor(.brightBlack)
        case .border: AnsiRoleColor(.blue)
        case .borderMuted: AnsiRoleColor(.blue, .dim)
        case .warn: AnsiRoleColor(.brightYellow)
        case .ok: AnsiRoleColor(.brightGreen)
        case .danger: AnsiRoleColor(.brightRed)
        }
    }

    public static func light(_ role: ColorRole) -> AnsiRoleColor {
        switch role {
        case .background: AnsiRoleColor(.brightWhite)
        case .panel, .backgroundDeep: AnsiRoleColor(.white)
        case .foreground, .body, .bodySoft: AnsiRoleColor(.black)
        case .accent, .mesh: AnsiRoleColor(.blue)
        case .foregroundMuted: AnsiRoleColor(.brightBlack)
        case .border: AnsiRoleColor(.blue)
        case .borderMuted: AnsiRoleColor(.blue, .dim)
        case .warn: AnsiRoleColor(.yellow)
        case .ok: AnsiRoleColor(.green)
        case .danger: AnsiRoleColor(.red)
        }
    }

    /// The table entry for `role`, adapted to terminals with only 8 colours: a bright colour
    /// becomes its normal colour plus bold (bold is bright on such terminals, e.g. the Linux
    /// console), except bright black, which bold may leave invisible on black: muted text
    /// becomes white + dim on dark themes and black + dim on light ones.
    public static func color(for role: ColorRole, lightTheme: Bool, hasBrightColors: Bool) -> AnsiRoleColor {
        adapted(
            lightTheme ? light(role) : dark(role), background: isBackgroundRole(role), lightTheme: lightTheme,
            hasBrightColors: hasBrightColors)
    }

    static func adapted(
        _ entry: AnsiRoleColor, background: Bool, lightTheme: Bool, hasBrightColors: Bool
    ) -> AnsiRoleColor {
        guard !hasBrightColors, entry.color.isBright else { return entry }
        if entry.color == .brightBlack {
            return AnsiRoleColor(lightTheme ? .black : .white, entry.attributes.union(.dim))
        }
        if background { return AnsiRoleColor(entry.color.normal, entry.attributes) }
        return AnsiRoleColor(entry.color.normal, entry.attributes.union(.bold))
    }

    static func isBackgroundRole(_ role: ColorRole) -> Bool {
        role == .background || role == .panel || role == .backgroundDeep
    }
}
