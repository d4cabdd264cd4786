/// A profile's own colour (`"accent"` in its config.json entry): `#rrggbb`, or the name of a
/// theme whose accent it takes. It replaces the theme's accent while that profile is the one
/// shown (masthead, NAV//, labels, the focus), so a production mesh is not mistaken for a
/// staging one. Checked here as the config is read; the colour itself is the UI's to resolve.
public enum ProfileAccent {
    public static let longestName = 40

    /// Why `spec` cannot be an accent, or nil when it can.
    public static func problem(_ spec: String) -> String? {
        if spec.hasPrefix("#") {
            let digits = spec.dropFirst()
            let hex = digits.count == 6 && digits.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit }
            return hex ? nil : "an accent colour is #rrggbb (six hex digits)"
        }
        let name =
            (1...longestName).contains(spec.unicodeScalars.count)
            && spec.unicodeScalars.allSatisfy { s in
                s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "_-".unicodeScalars.contains(s))
            }
        return name ? nil : "an accent is #rrggbb or a theme's name (letters, digits, _ and -)"
    }
}
