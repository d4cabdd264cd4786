/// A profile's name, as typed after `--profile`, `MAKIMA_PROFILE`, `login --name` and
/// `:profile`: the profile's label. Names are short words a shell can complete without
/// quoting: letters, digits and `. _ - : @`, 1 to 40 of them. A profile stored before names
/// existed is named by its server's host (and port), which fits the same rule.
public enum ProfileName {
    public static let maxLength = 40

    /// Why `name` cannot name a profile, or nil when it can.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "a profile name cannot be empty" }
        if name.unicodeScalars.count > maxLength { return "a profile name has at most \(maxLength) characters" }
        let allowed = name.unicodeScalars.allSatisfy { s in
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "._-:@".unicodeScalars.contains(s))
        }
        return allowed ? nil : "a profile name holds only letters, digits and . _ - : @"
    }
}

extension AppConfig {
    /// The profile called `name` (its label), if any.
    public func profile(named name: String) -> ServerProfile? {
        profiles.first { $0.label == name }
    }

    /// Every profile's name, in the order they were added.
    public var profileNames: [String] { profiles.map(\.label) }
}
