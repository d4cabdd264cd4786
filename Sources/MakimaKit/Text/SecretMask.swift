/// Hides a secret (the API key) in text the server sent back, before anything cuts, wraps or
/// shows that text. A server can echo the key in an error message; a hostile one can also
/// split it with invisible characters or send only part of it, so:
///
/// 1. invisible characters (zero-width spaces and joiners, format controls, variation
///    selectors, fillers) are removed first: a copy split by them becomes whole again;
/// 2. every run of text made of pieces of the secret at least `fragmentLength` long (or the
///    whole secret, if shorter) is replaced by the mask; a cut copy of the key is hidden too.
///
/// Callers mask first and truncate after (`APIError.serverMessage`).
public enum SecretMask {
    /// The shortest piece of a secret that counts as a copy of it. API keys are random: twelve
    /// characters of one do not turn up in ordinary text.
    public static let fragmentLength = 12

    public static func mask(_ text: String, secret: String, with replacement: String) -> String {
        let visible = removingInvisibles(text)
        let secretScalars = Array(secret.unicodeScalars)
        guard !secretScalars.isEmpty else { return visible }
        let k = min(fragmentLength, secretScalars.count)
        let scalars = Array(visible.unicodeScalars)
        guard scalars.count >= k else { return visible }
        var pieces = Set<String>()
        for start in 0...(secretScalars.count - k) {
            pieces.insert(String(String.UnicodeScalarView(secretScalars[start..<start + k])))
        }
        // Mark every scalar covered by a window that is a piece of the secret.
        var covered = [Bool](repeating: false, count: scalars.count)
        var found = false
        for start in 0...(scalars.count - k)
        where pieces.contains(String(String.UnicodeScalarView(scalars[start..<start + k]))) {
            for i in start..<start + k { covered[i] = true }
            found = true
        }
        guard found else { return visible }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if covered[i] {
                out.append(contentsOf: replacement.unicodeScalars)
                while i < scalars.count && covered[i] { i += 1 }
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return String(out)
    }

    /// Characters that draw nothing and could hide a secret's copy from a plain search.
    public static func removingInvisibles(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: text.unicodeScalars.lazy.filter { !isInvisible($0) })
        return String(out)
    }

    static func isInvisible(_ v: Unicode.Scalar) -> Bool {
        switch v.value {
        case 0x034F,  // combining grapheme joiner
            0x115F, 0x1160, 0x3164, 0xFFA0,  // Hangul fillers
            0xFE00...0xFE0F, 0xE0100...0xE01EF:  // variation selectors
            return true
        default:
            // Format controls: soft hyphen, zero-width space/joiners, word joiner, BOM, tags, …
            return v.properties.generalCategory == .format
        }
    }
}
