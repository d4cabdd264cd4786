/// What colours the terminal can show through ncurses, best first.
public enum ColorCapability: String, Sendable, Hashable, CaseIterable {
    /// 24-bit: the colour number is the RGB value (`xterm-direct`, `tmux-direct`, …).
    case direct
    /// The xterm 256-colour palette.
    case palette256
    /// The 8 or 16 ANSI colours, whose actual RGB is up to the terminal's theme.
    case palette16
    /// No colour: attributes only (`NO_COLOR`, `--color=never`, or a terminal without colours).
    case none
}

/// `--color=auto|always|never`.
public enum ColorPreference: String, Sendable, Hashable, CaseIterable {
    /// Use what the terminal offers unless `NO_COLOR` is set.
    case auto
    /// Use what the terminal offers even if `NO_COLOR` is set.
    case always
    /// No colour at all.
    case never

    /// Parses the value of `--color=`; nil for anything but auto, always, never.
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}

/// The result of `ColorDetection.detect`.
public struct ColorDetection: Sendable, Hashable {
    public var capability: ColorCapability
    /// True when the 16 ANSI colours are there (8–15); false on 8-colour terminals, where the
    /// bright colours are drawn as the normal ones plus bold.
    public var hasBrightColors: Bool
    /// True when the terminal could have palette entries redefined to the theme's exact colours
    /// (`can_change_color` on a 256-colour terminal). The shell decides whether to do it.
    public var canRedefineColors: Bool
    /// Human-readable remarks worth showing in diagnostics (e.g. why true colour is not used).
    public var notes: [String]

    public init(capability: ColorCapability, hasBrightColors: Bool, canRedefineColors: Bool, notes: [String] = []) {
        self.capability = capability
        self.hasBrightColors = hasBrightColors
        self.canRedefineColors = canRedefineColors
        self.notes = notes
    }

    /// Colour count from which ncurses takes a colour number as RGB (terminfo `colors#0x1000000`).
    public static let directColorCount = 1 << 24

    /// Decides the capability from its inputs, in this order:
    /// 1. `--color=never` → none. `NO_COLOR` set and not empty → none, unless `--color=always`.
    /// 2. With `colors` known (ncurses `COLORS` after `start_color`, which reflects terminfo):
    ///    ≥ 2^24 → direct; ≥ 256 → palette256; ≥ 8 → palette16; else none.
    ///    ncurses can only emit what terminfo describes, so `COLORTERM=truecolor` with
    ///    `TERM=xterm-256color` stays palette256 (a note says to use a `-direct` TERM).
    /// 3. With `colors` unknown (nil, before ncurses starts), from the TERM name: empty or
    ///    `dumb` → none; containing `-direct` → direct; containing `256col` → palette256; a
    ///    known colour terminal family or a name containing `color` → palette16; else none.
    public static func detect(
        term: String?,
        colors: Int?,
        canChangeColor: Bool,
        colorTerm: String?,
        noColor: String?,
        preference: ColorPreference
    ) -> ColorDetection {
        var notes: [String] = []
        if preference == .never {
            return ColorDetection(
                capability: .none, hasBrightColors: false, canRedefineColors: false,
                notes: ["--color=never"])
        }
        if let noColor, !noColor.isEmpty {
            if preference == .auto {
                return ColorDetection(
                    capability: .none, hasBrightColors: false, canRedefineColors: false,
                    notes: ["NO_COLOR is set"])
            }
            notes.append("NO_COLOR is set but --color=always overrides it")
        }

        let termName = (term ?? "").lowercased()
        let capability: ColorCapability
        let hasBright: Bool
        if let colors {
            switch colors {
            case directColorCount...: capability = .direct
            case 256...: capability = .palette256
            case 8...: capability = .palette16
            default: capability = .none
            }
            hasBright = colors >= 16
            if capability == .none {
                notes.append("terminfo for TERM=\(term ?? "") has no colours")
            }
        } else {
            capability = guess(termName: termName)
            hasBright = capability != .none
        }

        let wantsTrueColor = ["truecolor", "24bit"].contains((colorTerm ?? "").lowercased())
        if wantsTrueColor && (capability == .palette256 || capability == .palette16) {
            // Only some terminals have a -direct entry; inside tmux or screen it is tmux-direct.
            let base = termName.hasPrefix("tmux") || termName.hasPrefix("screen") ? "tmux" : "xterm"
            notes.append(
                "COLORTERM=\(colorTerm ?? "") but terminfo for TERM=\(term ?? "") has no direct colour, "
                    + "so ncurses can only use \(capability == .palette256 ? "256" : "16") colours; "
                    + "run with TERM=\(base)-direct (from ncurses-term) for exact colours")
        }
        let canRedefine = capability == .palette256 && canChangeColor && (colors ?? 0) >= 256
        return ColorDetection(
            capability: capability, hasBrightColors: hasBright,
            canRedefineColors: canRedefine, notes: notes)
    }

    /// Reads `TERM`, `COLORTERM` and `NO_COLOR` from an environment dictionary.
    public static func detect(
        environment: [String: String],
        colors: Int?,
        canChangeColor: Bool,
        preference: ColorPreference
    ) -> ColorDetection {
        detect(
            term: environment["TERM"], colors: colors, canChangeColor: canChangeColor,
            colorTerm: environment["COLORTERM"], noColor: environment["NO_COLOR"], preference: preference)
    }

    private static let colorTerminalFamilies = [
        "xterm", "screen", "tmux", "rxvt", "linux", "vte", "gnome", "konsole", "alacritty", "kitty",
        "foot", "wezterm", "putty", "cygwin", "ansi", "st-", "iterm", "mintty", "contour",
    ]

    private static func guess(termName: String) -> ColorCapability {
        if termName.isEmpty || termName == "dumb" { return .none }
        if termName.contains("-direct") { return .direct }
        if termName.contains("256col") { return .palette256 }
        if termName.contains("color") || colorTerminalFamilies.contains(where: { termName.hasPrefix($0) }) {
            return .palette16
        }
        return .none
    }
}
