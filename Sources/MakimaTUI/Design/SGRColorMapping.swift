/// Maps colours found in task output (ANSI SGR) onto palette roles, so program output is drawn
/// in the theme's colours and can never put arbitrary colours on screen.
/// Named colours follow their meaning (red → danger, green → ok, yellow → warn, blue, cyan and
/// magenta → accent, white → foreground, black and bright black → foregroundMuted); 256-colour
/// and RGB colours go to the nearest text role of the theme by CIEDE2000.
public struct SGRColorMapping: Sendable {
    /// Roles task output may be coloured with: text roles only (no backgrounds, no borders,
    /// and bodySoft is too close to body to be worth a choice).
    public static let textRoles: [ColorRole] = [.foreground, .body, .accent, .foregroundMuted, .warn, .ok, .danger]

    /// ANSI colour 0–15 → role, independent of the theme.
    public static func role(forANSI color: AnsiColor) -> ColorRole {
        switch color.normal {
        case .black: .foregroundMuted
        case .red: .danger
        case .green: .ok
        case .yellow: .warn
        case .blue, .magenta, .cyan: .accent
        default: .foreground
        }
    }

    private let textLab: [(role: ColorRole, lab: LabColor)]
    private let cube: [ColorRole]

    public init(theme: Theme) {
        let textLab = Self.textRoles.map { ($0, LabColor(theme.color($0))) }
        self.textLab = textLab
        self.cube = Xterm256.searchable.map { index in
            Self.nearest(LabColor(Xterm256.rgb(index) ?? RGB(hex: 0)), among: textLab)
        }
    }

    /// `38;5;n`: 0–15 by meaning, 16–255 by nearest colour. Nil when out of range.
    public func role(forXterm256 index: Int) -> ColorRole? {
        switch index {
        case 0...15: AnsiColor(rawValue: index).map(Self.role(forANSI:))
        case Xterm256.searchable: cube[index - Xterm256.searchable.lowerBound]
        default: nil
        }
    }

    /// `38;2;r;g;b`: the nearest text role.
    public func role(for rgb: RGB) -> ColorRole {
        Self.nearest(LabColor(rgb), among: textLab)
    }

    private static func nearest(_ target: LabColor, among roles: [(role: ColorRole, lab: LabColor)]) -> ColorRole {
        var best = roles[0]
        var bestDistance = Double.infinity
        for candidate in roles {
            let distance = ColorScience.deltaE2000(target, candidate.lab)
            if distance < bestDistance {
                best = candidate
                bestDistance = distance
            }
        }
        return best.role
    }
}
